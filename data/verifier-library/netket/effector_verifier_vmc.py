import netket as nk


def effector_verifier_vmc(hamiltonian, vstate, n_iter=300, learning_rate=0.05, diag_shift=0.05):
    """Stands in for an effector_ function running variational Monte Carlo with stochastic reconfiguration
    (netket.driver.VMC + optimizer.Sgd + SR preconditioner).

    Args:
        hamiltonian: a netket operator.
        vstate: a netket variational state (MCState or FullSumState); optimised in place.
        n_iter: optimisation steps; learning_rate: SGD step; diag_shift: SR regularisation.
    Returns:
        (energy, error, history): the final energy estimate, its statistical error, and the energy per step
        (a list of floats) for convergence plots.
    """
    driver = nk.driver.VMC(
        hamiltonian,
        nk.optimizer.Sgd(learning_rate=learning_rate),
        variational_state=vstate,
        preconditioner=nk.optimizer.SR(diag_shift=diag_shift),
    )
    log = nk.logging.RuntimeLog()
    driver.run(n_iter=n_iter, out=log, show_progress=False)
    history = [float(x) for x in log.data["Energy"]["Mean"].real]
    final = vstate.expect(hamiltonian)
    return float(final.mean.real), float(final.error_of_mean), history

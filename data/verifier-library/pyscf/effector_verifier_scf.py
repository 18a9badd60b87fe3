import physvec_runtime as pv


def effector_verifier_scf(mf, dm0=None, conv_tol=1e-9, max_cycle=100, checkpoint=None):
    """Stands in for an effector_ function: runs the SCF to convergence (ORCA: the single-point run, e.g. with TightSCF).

    Args:
        mf: a pyscf mean-field object (hamiltonian_verifier_mean_field).
        dm0: optional initial density matrix (initialstate_verifier_guess_density).
        conv_tol: energy convergence threshold in Hartree; max_cycle: SCF iterations allowed.
        checkpoint: optional name of a PySCF chkfile in the run's checkpoint dir (physvec_runtime); the SCF
            writes it every cycle and a retried run that finds it starts from its orbitals.
    Returns:
        (energy, mf): the total energy in Hartree and the converged mean-field object.
    Raises:
        RuntimeError when the SCF does not converge.
    """
    mf.conv_tol = conv_tol
    mf.max_cycle = max_cycle
    if pv.use_chkfile(mf, checkpoint):
        dm0 = None  # the chkfile's orbitals, not the given guess
    energy = mf.kernel(dm0=dm0)
    if not mf.converged:
        raise RuntimeError(f"SCF did not converge in {max_cycle} cycles (last energy {energy})")
    return float(energy), mf

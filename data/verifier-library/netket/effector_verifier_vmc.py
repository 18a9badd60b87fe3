import netket as nk
import numpy as np
import physvec_runtime as pv
from flax import serialization


def effector_verifier_vmc(hamiltonian, vstate, n_iter=300, learning_rate=0.05, diag_shift=0.05, checkpoint=None, every=10):
    """Stands in for an effector_ function running variational Monte Carlo with stochastic reconfiguration
    (netket.driver.VMC + optimizer.Sgd + SR preconditioner).

    Args:
        hamiltonian: a netket operator.
        vstate: a netket variational state (MCState or FullSumState); optimised in place.
        n_iter: optimisation steps; learning_rate: SGD step; diag_shift: SR regularisation.
        checkpoint: optional checkpoint name (physvec_runtime): every `every` steps the variational state
            (parameters, sampler state with its RNG key), the optimizer state, the step count and the energy
            history are saved (flax msgpack); a retried run that finds them continues from there.
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
    history = []
    saved = pv.load_bytes(checkpoint) if checkpoint else None
    if saved is not None:
        state = serialization.msgpack_restore(saved)
        restored = serialization.from_state_dict(vstate, state["vstate"])
        vstate.variables = restored.variables
        if hasattr(vstate, "sampler_state"):  # MCState: its Markov chains and RNG key (FullSumState has none)
            vstate.sampler_state = restored.sampler_state
        driver._optimizer_state = serialization.from_state_dict(driver._optimizer_state, state["optimizer"])
        driver._step_count = int(state["step"])
        history = [float(e) for e in state["history"]]

    def record(step, log_data, drv):
        history.append(float(log_data["Energy"].mean.real))
        pv.progress(run=checkpoint, iteration=len(history), n_iter=n_iter, E=history[-1])
        return True

    # Saved between runs of `every` steps, not from the callback: a callback runs before its step's parameter
    # update. NetKet keeps optimizer and sampler state between runs, so the blocks are one chain of updates.
    block = every if checkpoint else n_iter
    while len(history) < n_iter:
        driver.run(n_iter=min(block, n_iter - len(history)), out=(), show_progress=False, callback=record)
        if checkpoint:
            state = {"vstate": serialization.to_state_dict(vstate), "optimizer": serialization.to_state_dict(driver._optimizer_state),
                     "step": len(history), "history": np.asarray(history)}
            pv.save_bytes(checkpoint, serialization.msgpack_serialize(state))
    final = vstate.expect(hamiltonian)
    return float(final.mean.real), float(final.error_of_mean), history

"""NetKet VMC that checkpoints every `every` steps and resumes a crashed run with the same chain of updates.

    history = pv.checkpointed_vmc(driver, n_iter=3000, checkpoint="vmc_L10_alpha1_seed1234.msgpack")

The driver runs in blocks of `every` steps and after each block the variational state (parameters and,
for a sampled state, its Markov chains and RNG key), the optimizer state, the step count and the energy
history are saved with flax serialization. Saving between blocks, not from a callback: NetKet calls a
callback before its step's parameter update. NetKet keeps optimizer and sampler state between runs, so
the blocks (and a resumed run) are the same chain of updates as one uninterrupted run.
"""
from __future__ import annotations

from typing import Any

# Through the package at call time, so a wrapped pv.progress (or save) sees these calls too.
import physvec_runtime as pv


def checkpointed_vmc(driver: Any, n_iter: int, checkpoint: str | None = None, every: int = 10) -> list[float]:
    """The energy of every step (a list of floats); `driver` is an nk.driver.VMC on its variational state."""
    import numpy as np
    from flax import serialization

    vstate = driver.state
    history: list[float] = []
    saved = pv.load_bytes(checkpoint) if checkpoint else None
    if saved is not None:
        state = serialization.msgpack_restore(saved)
        restored = serialization.from_state_dict(vstate, state["vstate"])
        vstate.variables = restored.variables
        if hasattr(vstate, "sampler_state"):  # MCState (FullSumState has no sampler)
            vstate.sampler_state = restored.sampler_state
        driver._optimizer_state = serialization.from_state_dict(driver._optimizer_state, state["optimizer"])
        driver._step_count = int(state["step"])
        history = [float(e) for e in state["history"]]

    def record(step: int, log_data: Any, drv: Any) -> bool:
        history.append(float(log_data["Energy"].mean.real))
        pv.progress(run=checkpoint, iteration=len(history), n_iter=n_iter, E=history[-1])
        return True

    block = every if checkpoint else n_iter
    while len(history) < n_iter:
        driver.run(n_iter=min(block, n_iter - len(history)), out=(), show_progress=False, callback=record)
        if checkpoint:
            state = {"vstate": serialization.to_state_dict(vstate), "optimizer": serialization.to_state_dict(driver._optimizer_state),
                     "step": len(history), "history": np.asarray(history, dtype=float)}
            pv.save_bytes(checkpoint, serialization.msgpack_serialize(state))
    return history

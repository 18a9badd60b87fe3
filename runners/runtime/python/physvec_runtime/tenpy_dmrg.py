"""TeNPy DMRG that checkpoints every sweep and resumes a crashed run where it stopped.

    energy, psi = pv.checkpointed_dmrg(dmrg.TwoSiteDMRGEngine, psi, model, options, checkpoint="dmrg_L64_chi100.h5")

The engine's own resume data (MPS, environments, sweep count) and its sweep statistics go to an HDF5
file through TeNPy's hdf5_io after each sweep (the engine's `checkpoint` hook); a run that finds the
file continues with `resume_run()`, and one that finds it marked finished returns the saved result
without sweeping. Without a checkpoint name this is `engine_class(psi, model, options).run()`.
"""
from __future__ import annotations

from typing import Any

# Through the package at call time, so a wrapped pv.progress (or save) sees these calls too.
import physvec_runtime as pv


def checkpointed_dmrg(engine_class: Any, psi: Any, model: Any, options: Any, checkpoint: str | None = None) -> tuple[float, Any]:
    """(ground-state energy, MPS). `options` are the engine's own options (max_sweeps, trunc_params, ...)."""
    saved = pv.load_hdf5(checkpoint) if checkpoint else None
    if saved and saved.get("finished"):
        return float(saved["E"]), saved["resume_data"]["psi"]
    if saved:
        engine = engine_class(psi, model, options, resume_data=saved["resume_data"])
        # TeNPy's resume data omits the sweep statistics its convergence check reads.
        engine.sweep_stats = {k: list(v) for k, v in saved["sweep_stats"].items()}
    else:
        engine = engine_class(psi, model, options)
    max_sweeps = options.get("max_sweeps")

    def save(eng: Any, finished: bool = False) -> None:
        assert checkpoint is not None  # connected and called only with a checkpoint name
        state = {"resume_data": eng.get_resume_data(), "sweep_stats": eng.sweep_stats, "finished": finished}
        if finished:
            state["E"] = eng.sweep_stats["E"][-1]
        pv.save_hdf5(checkpoint, state)
        pv.progress(run=checkpoint, sweep=eng.sweeps, max_sweeps=max_sweeps, E=eng.sweep_stats["E"][-1], chi=max(eng.psi.chi))

    if checkpoint:
        engine.checkpoint.connect(save)
    energy, psi = engine.resume_run() if saved else engine.run()
    if checkpoint:
        save(engine, finished=True)
    return float(energy), psi

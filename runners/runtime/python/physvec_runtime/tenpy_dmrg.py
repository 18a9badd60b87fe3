"""TeNPy DMRG that checkpoints every sweep and resumes a crashed run where it stopped.

    energy, psi = pv.checkpointed_dmrg(dmrg.TwoSiteDMRGEngine, psi, model, options, checkpoint="dmrg_L64_chi100.h5")

The engine's own resume data (MPS, environments, sweep count), its sweep statistics and the engine
state TeNPy's resume data leaves out (mixer amplitude, adapted Lanczos tolerances) go to an HDF5 file
through TeNPy's hdf5_io after each sweep (the engine's `checkpoint` hook); a run that finds the file
continues with `resume_run()` and ends with the uninterrupted run's numbers to the last bit, and one
that finds it marked finished returns the saved result without sweeping. Without a checkpoint name this is `engine_class(psi, model, options).run()`.
"""
from __future__ import annotations

from typing import Any

# Through the package at call time, so a wrapped pv.progress (or save) sees these calls too.
import physvec_runtime as pv


# Lanczos options DMRGEngine.run_iteration rewrites from the last sweep's truncation error.
_ADAPTED_TOLERANCES = ("P_tol", "E_tol")


def _engine_state(engine: Any) -> dict[str, Any]:
    """What TeNPy's resume data leaves out but the next sweeps depend on: the mixer's decayed amplitude
    (run() re-activates a fresh mixer at its initial amplitude, so a resumed run took different steps
    and gave numbers that differ from the uninterrupted run's) and the Lanczos tolerances run_iteration adapts to the truncation error (P_tol_to_trunc is on by
    default, E_tol_to_trunc when set)."""
    mixer = engine.mixer
    state: dict[str, Any] = {"mixer_on": mixer is not None}
    if mixer is not None:
        state["mixer_amplitude"] = mixer.amplitude
        state["mixer_sweep_activated"] = mixer.sweep_activated
    params = engine.lanczos_params
    state["lanczos"] = {k: float(params[k]) for k in _ADAPTED_TOLERANCES if k in params and params[k] is not None}
    return state


def _restore_on_start(engine: Any, state: dict[str, Any] | None) -> None:
    """Puts `state` back right after run() activates its mixer (its first call of mixer_activate)."""
    if not state:
        return  # a checkpoint written before the engine state was saved: resumes as before
    activate = engine.mixer_activate

    def activate_then_restore() -> None:
        engine.mixer_activate = activate  # later calls (chi_list reactivation) behave as TeNPy's own
        activate()
        if not state.get("mixer_on"):
            engine.mixer = None
        elif engine.mixer is not None:
            engine.mixer.amplitude = state["mixer_amplitude"]
            engine.mixer.sweep_activated = state["mixer_sweep_activated"]
        for key, value in state.get("lanczos", {}).items():
            engine.lanczos_params[key] = value

    engine.mixer_activate = activate_then_restore


def checkpointed_dmrg(engine_class: Any, psi: Any, model: Any, options: Any, checkpoint: str | None = None) -> tuple[float, Any]:
    """(ground-state energy, MPS). `options` are the engine's own options (max_sweeps, trunc_params, ...)."""
    saved = pv.load_hdf5(checkpoint) if checkpoint else None
    if saved and saved.get("finished"):
        return float(saved["E"]), saved["resume_data"]["psi"]
    if saved:
        engine = engine_class(psi, model, options, resume_data=saved["resume_data"])
        # TeNPy's resume data omits the sweep statistics its convergence check reads.
        engine.sweep_stats = {k: list(v) for k, v in saved["sweep_stats"].items()}
        _restore_on_start(engine, saved.get("engine_state"))
    else:
        engine = engine_class(psi, model, options)
    max_sweeps = options.get("max_sweeps")

    def save(eng: Any, finished: bool = False) -> None:
        assert checkpoint is not None  # connected and called only with a checkpoint name
        state = {"resume_data": eng.get_resume_data(), "sweep_stats": eng.sweep_stats, "finished": finished,
                 "engine_state": _engine_state(eng)}
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

"""PySCF SCF through its own chkfile, kept in the run's checkpoint directory.

    mf = scf.RHF(mol)
    resumed = pv.use_chkfile(mf, "rhf_R1.40.chk")
    mf.kernel(dm0=None if resumed else dm_guess)

PySCF rewrites the chkfile every SCF cycle; a retried run that finds it starts from its orbitals
(`init_guess = "chkfile"`), so an SCF cut short converges in the cycles it had left, and a converged one
again in a cycle or two. Progress (cycle, E) is reported every cycle.
"""
from __future__ import annotations

from typing import Any

# Through the package at call time, so a wrapped pv.progress (or save) sees these calls too.
import physvec_runtime as pv


def use_chkfile(mf: Any, checkpoint: str | None = None) -> bool:
    """Point `mf` at checkpoint `checkpoint`; True when it restarts from an earlier attempt's chkfile."""
    if not checkpoint:
        return False
    resumed = pv.exists(checkpoint)
    mf.chkfile = str(pv.checkpoint_path(checkpoint))
    if resumed:
        mf.init_guess = "chkfile"
    mf.callback = lambda env: pv.progress(run=checkpoint, cycle=env["cycle"] + 1, E=float(env["e_tot"]))
    return resumed

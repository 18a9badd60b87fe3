import numpy as np
from tenpy.algorithms.exact_diag import ExactDiag


def effector_verifier_exact_diagonalization(model, charge_sector=None, n_states=1):
    """Stands in for an effector_ function on small systems, and gives limiting-case references for DMRG.

    Args:
        model: a tenpy model with H_MPO (at most ~12 spin-1/2 or ~8 Hubbard sites).
        charge_sector: conserved charges to restrict to, e.g. [2*Sz] = [0] for spins with conserve="Sz",
            [N, 2*Sz] for SpinHalfFermionSite(cons_N="N", cons_Sz="Sz"); None = all sectors.
        n_states: number of lowest energies returned.
    Returns:
        A numpy array of the n_states lowest energies, ascending.
    """
    ed = ExactDiag.from_H_mpo(model.H_MPO, charge_sector=charge_sector)
    ed.build_full_H_from_mpo()
    ed.full_diagonalization()
    return np.sort(np.asarray(ed.E, dtype=float))[:n_states]

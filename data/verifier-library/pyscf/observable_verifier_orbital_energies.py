import numpy as np

HARTREE_TO_EV = 27.211386245988


def observable_verifier_orbital_energies(mf):
    """Stands in for an observable_ function reading frontier orbitals (ORCA: the ORBITAL ENERGIES table).

    Args:
        mf: a converged pyscf mean-field object (restricted or unrestricted).
    Returns:
        A dict {"homo", "lumo", "gap"} in eV (for unrestricted: highest occupied / lowest virtual over both spins).
    """
    energies = np.asarray(mf.mo_energy).reshape(-1)
    occupations = np.asarray(mf.mo_occ).reshape(-1)
    homo = float(energies[occupations > 0].max()) * HARTREE_TO_EV
    lumo = float(energies[occupations == 0].min()) * HARTREE_TO_EV
    return {"homo": homo, "lumo": lumo, "gap": lumo - homo}

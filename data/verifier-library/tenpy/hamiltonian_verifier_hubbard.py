import numpy as np
from tenpy.models.lattice import Lattice, TrivialLattice
from tenpy.models.model import CouplingModel, MPOModel


def hamiltonian_verifier_hubbard(sites, t=1.0, U=0.0, mu=0.0, potential=None, bonds=None):
    """Stands in for a hamiltonian_ function of the Fermi-Hubbard model:
    H = -t sum_<ij>,s (c+_is c_js + h.c.) + U sum_i n_iu n_id - mu sum_i n_i + sum_i V_i n_i
    (ITensors: an OpSum of "Cdagup","Cup", ... and "Nupdn" on siteinds("Electron")). Jordan-Wigner strings
    are inserted by tenpy.

    Args:
        sites: a list of SpinHalfFermionSite (site_verifier_spin_half_fermion_chain) or a tenpy Lattice of them.
        t: hopping; U: on-site interaction; mu: chemical potential.
        potential: optional per-site potential V_i (length = number of sites), e.g. a harmonic trap.
        bonds: list of (i, j) MPS-index pairs; default: open nearest-neighbour chain for a site list,
            the lattice's nearest neighbours for a Lattice.
    Returns:
        A tenpy MPOModel (model.H_MPO is the MPO).
    """
    if isinstance(sites, Lattice):
        if bonds is None:
            bonds = [(int(i), int(j)) for u1, u2, dx in sites.pairs["nearest_neighbors"] for i, j in zip(*sites.possible_couplings(u1, u2, dx)[:2])]
        sites = sites.mps_sites()
    if bonds is None:
        bonds = [(i, i + 1) for i in range(len(sites) - 1)]
    lat = TrivialLattice(sites)
    model = CouplingModel(lat)
    for i, j in bonds:
        model.add_local_term(-t, [("Cdu", [0, i]), ("Cu", [0, j])], plus_hc=True)
        model.add_local_term(-t, [("Cdd", [0, i]), ("Cd", [0, j])], plus_hc=True)
    onsite = -mu * np.ones(len(sites)) + (np.zeros(len(sites)) if potential is None else np.asarray(potential, dtype=float))
    for i in range(len(sites)):
        if U:
            model.add_onsite_term(U, i, "NuNd")
        if onsite[i]:
            model.add_onsite_term(onsite[i], i, "Ntot")
    return MPOModel(lat, model.calc_H_MPO())

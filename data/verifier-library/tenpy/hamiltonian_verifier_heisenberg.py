from tenpy.models.lattice import Lattice, TrivialLattice
from tenpy.models.model import CouplingModel, MPOModel


def hamiltonian_verifier_heisenberg(sites, J=1.0, Jz=None, hz=0.0, bonds=None):
    """Stands in for a hamiltonian_ function of a spin chain: H = sum_<ij> [J/2 (S+_i S-_j + h.c.) + Jz Sz_i Sz_j] - hz sum_i Sz_i
    (ITensors: an OpSum of "Sz","Sz" and "S+","S-" terms turned into an MPO).

    Args:
        sites: a list of tenpy spin sites (any S; site_verifier_spin_*_chain) or a tenpy Lattice.
        J: XY exchange; Jz: Ising exchange (default J, the isotropic Heisenberg model); hz: field along z.
        bonds: list of (i, j) MPS-index pairs; default: open nearest-neighbour chain for a site list,
            the lattice's nearest neighbours for a Lattice.
    Returns:
        A tenpy MPOModel (model.H_MPO is the MPO) for effector_verifier_dmrg / tenpy.algorithms.dmrg.run.
    """
    if isinstance(sites, Lattice):
        if bonds is None:
            bonds = [(int(i), int(j)) for u1, u2, dx in sites.pairs["nearest_neighbors"] for i, j in zip(*sites.possible_couplings(u1, u2, dx)[:2])]
        sites = sites.mps_sites()
    if bonds is None:
        bonds = [(i, i + 1) for i in range(len(sites) - 1)]
    Jz = J if Jz is None else Jz
    lat = TrivialLattice(sites)
    model = CouplingModel(lat)
    for i, j in bonds:
        model.add_local_term(Jz, [("Sz", [0, i]), ("Sz", [0, j])])
        model.add_local_term(0.5 * J, [("Sp", [0, i]), ("Sm", [0, j])], plus_hc=True)
    if hz:
        for i in range(len(sites)):
            model.add_onsite_term(-hz, i, "Sz")
    return MPOModel(lat, model.calc_H_MPO())

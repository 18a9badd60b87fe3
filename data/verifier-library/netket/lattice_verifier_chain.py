import netket as nk


def lattice_verifier_chain(L, pbc=True):
    """Stands in for a lattice_ function of a one-dimensional chain (NetKet graph).

    Args:
        L: number of sites.
        pbc: periodic (True) or open (False) boundary conditions.
    Returns:
        A netket.graph.Chain; graph.n_nodes sites, graph.edges() the nearest-neighbour bonds.
    """
    return nk.graph.Chain(length=L, pbc=pbc)

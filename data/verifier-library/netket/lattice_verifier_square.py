import netket as nk


def lattice_verifier_square(L, pbc=True):
    """Stands in for a lattice_ function of an L x L square lattice (NetKet graph), e.g. the 2D Heisenberg model.

    Args:
        L: linear size (L * L sites).
        pbc: periodic (True) or open (False) boundary conditions.
    Returns:
        A netket.graph.Square (a Lattice: graph.n_nodes, graph.edges(), graph.positions).
    """
    return nk.graph.Square(length=L, pbc=pbc)

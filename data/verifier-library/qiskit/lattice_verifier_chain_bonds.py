def lattice_verifier_chain_bonds(n_sites, periodic=False):
    """Stands in for a lattice_ function: nearest-neighbour bonds of a chain of n_sites sites.

    Args:
        n_sites: number of sites (qubits for spins, spatial orbitals for fermions).
        periodic: add the bond (n_sites - 1, 0) when n_sites > 2.
    Returns:
        A list of (i, j) pairs with i < j.
    """
    bonds = [(i, i + 1) for i in range(n_sites - 1)]
    if periodic and n_sites > 2:
        bonds.append((0, n_sites - 1))
    return bonds

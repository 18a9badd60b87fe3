def site_verifier_fermion_qubit_map(n_sites):
    """Stands in for a site_ function of spinful fermions on qubits (Jordan-Wigner, blocked spin ordering).

    Args:
        n_sites: number of lattice sites (spatial orbitals).
    Returns:
        A dict {(site, "up" | "down"): qubit}: spin-up orbitals on qubits 0..n_sites-1, spin-down on
        n_sites..2*n_sites-1 (qiskit's little-endian bit order: qubit q is bit q of a basis index).
    """
    mapping = {}
    for i in range(n_sites):
        mapping[(i, "up")] = i
        mapping[(i, "down")] = n_sites + i
    return mapping

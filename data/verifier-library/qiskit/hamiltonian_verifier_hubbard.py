from qiskit.quantum_info import SparsePauliOp


def hamiltonian_verifier_hubbard(n_sites, t=1.0, U=0.0, mu=0.0, bonds=None):
    """Stands in for a hamiltonian_ function of the Fermi-Hubbard model mapped to qubits by Jordan-Wigner:
    H = -t sum_<ij>,s (c+_is c_js + h.c.) + U sum_i n_iu n_id - mu sum_i (n_iu + n_id).

    Args:
        n_sites: number of sites; qubits are laid out as site_verifier_fermion_qubit_map (up: 0..n-1, down: n..2n-1).
        t: hopping; U: on-site interaction; mu: chemical potential.
        bonds: list of (i, j) site pairs; default open nearest-neighbour chain.
    Returns:
        A qiskit SparsePauliOp on 2 * n_sites qubits.
    """
    n_qubits = 2 * n_sites
    if bonds is None:
        bonds = [(i, i + 1) for i in range(n_sites - 1)]

    def annihilate(q):
        # c_q = Z_0 ... Z_{q-1} (X_q + i Y_q) / 2
        z = [("Z", [k], 1.0) for k in range(q)]
        string = SparsePauliOp.from_sparse_list([("X", [q], 0.5), ("Y", [q], 0.5j)], num_qubits=n_qubits)
        for label, qubits, coeff in z:
            string = string.compose(SparsePauliOp.from_sparse_list([(label, qubits, coeff)], num_qubits=n_qubits))
        return string

    c = [annihilate(q) for q in range(n_qubits)]
    cdag = [op.adjoint() for op in c]
    number = [cdag[q].compose(c[q]) for q in range(n_qubits)]
    H = SparsePauliOp.from_sparse_list([("", [], 0.0)], num_qubits=n_qubits)
    for i, j in bonds:
        for offset in (0, n_sites):
            hop = cdag[i + offset].compose(c[j + offset])
            H = H + (-t) * (hop + hop.adjoint())
    for i in range(n_sites):
        H = H + U * number[i].compose(number[i + n_sites]) - mu * (number[i] + number[i + n_sites])
    return H.simplify()

from qiskit.quantum_info import SparsePauliOp


def hamiltonian_verifier_tfim(n_qubits, J=1.0, h=1.0, bonds=None):
    """Stands in for a hamiltonian_ function of the transverse-field Ising model on qubits:
    H = -J sum_<ij> Z_i Z_j - h sum_i X_i.

    Args:
        n_qubits: number of spins.
        J: zz coupling (J > 0 ferromagnetic); h: transverse field.
        bonds: list of (i, j) pairs; default open nearest-neighbour chain.
    Returns:
        A qiskit SparsePauliOp on n_qubits qubits.
    """
    if bonds is None:
        bonds = [(i, i + 1) for i in range(n_qubits - 1)]
    terms = [("ZZ", [i, j], -J) for i, j in bonds] + [("X", [i], -h) for i in range(n_qubits)]
    return SparsePauliOp.from_sparse_list(terms, num_qubits=n_qubits).simplify()

from qiskit import QuantumCircuit


def initialstate_verifier_basis_state(n_qubits, occupied):
    """Stands in for an initialstate_ function: a computational basis state (e.g. a Hartree-Fock or Neel reference).

    Args:
        n_qubits: circuit width.
        occupied: qubits set to |1> (for fermions: the occupied spin orbitals).
    Returns:
        A qiskit QuantumCircuit of X gates on the occupied qubits.
    """
    circuit = QuantumCircuit(n_qubits)
    for q in occupied:
        circuit.x(q)
    return circuit

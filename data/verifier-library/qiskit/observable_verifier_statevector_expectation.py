from qiskit.quantum_info import Statevector


def observable_verifier_statevector_expectation(circuit, operator):
    """Stands in for an observable_ function: the exact expectation value of an operator in the state a circuit prepares.

    Args:
        circuit: a qiskit QuantumCircuit without measurements (or a Statevector).
        operator: a SparsePauliOp (or any qiskit operator) on the same qubits.
    Returns:
        The real part of <psi|operator|psi> as a float.
    """
    state = circuit if isinstance(circuit, Statevector) else Statevector(circuit)
    return float(state.expectation_value(operator).real)

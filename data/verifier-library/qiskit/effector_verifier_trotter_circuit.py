from qiskit import QuantumCircuit
from qiskit.circuit.library import PauliEvolutionGate
from qiskit.synthesis import LieTrotter, SuzukiTrotter


def effector_verifier_trotter_circuit(hamiltonian, time, steps, initial_circuit=None, order=1):
    """Stands in for an effector_ function building a Trotterised time-evolution circuit exp(-i H t).

    Args:
        hamiltonian: a qiskit SparsePauliOp.
        time: total evolution time; steps: number of Trotter steps (dt = time / steps).
        initial_circuit: optional state-preparation circuit placed before the evolution.
        order: 1 (Lie-Trotter) or 2 (second-order Suzuki).
    Returns:
        A qiskit QuantumCircuit (no measurements) holding the Trotter product of Pauli rotations.
    """
    synthesis = LieTrotter(reps=steps) if order == 1 else SuzukiTrotter(order=order, reps=steps)
    circuit = QuantumCircuit(hamiltonian.num_qubits)
    if initial_circuit is not None:
        circuit.compose(initial_circuit, inplace=True)
    # The synthesised product formula, not the gate itself: simulators would apply the gate's exact matrix.
    evolution = PauliEvolutionGate(hamiltonian, time=time, synthesis=synthesis)
    circuit.compose(evolution.definition, qubits=range(hamiltonian.num_qubits), inplace=True)
    return circuit

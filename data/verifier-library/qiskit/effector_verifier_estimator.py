import math

from qiskit.primitives import StatevectorEstimator
from qiskit_aer.primitives import EstimatorV2 as AerEstimator


def effector_verifier_estimator(circuit, observables, shots=None, seed=0):
    """Stands in for an effector_ function that executes a circuit and returns expectation values (Qiskit 2 primitives).

    Args:
        circuit: a qiskit QuantumCircuit without measurements.
        observables: a list of SparsePauliOp on the circuit's qubits.
        shots: None for exact statevector values (qiskit StatevectorEstimator); an integer for shot-noise
            estimates from qiskit-aer's EstimatorV2 (precision 1/sqrt(shots)).
        seed: simulator seed for the shot-based path.
    Returns:
        A list of floats, one expectation value per observable.
    """
    if shots is None:
        result = StatevectorEstimator().run([(circuit, list(observables))]).result()
    else:
        estimator = AerEstimator(options={"run_options": {"seed_simulator": seed}})
        result = estimator.run([(circuit, list(observables))], precision=1 / math.sqrt(shots)).result()
    return [float(v) for v in result[0].data.evs]

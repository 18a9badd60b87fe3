from qiskit_aer.primitives import SamplerV2 as AerSampler


def effector_verifier_sampler(circuit, shots=1024, seed=0):
    """Stands in for an effector_ function that samples measurement outcomes (qiskit-aer SamplerV2).

    Args:
        circuit: a qiskit QuantumCircuit; measure_all() is added when it has no classical bits.
        shots: number of samples; seed: simulator seed.
    Returns:
        A dict {bitstring: count}; bitstrings are little-endian (qubit 0 is the rightmost character).
    """
    if circuit.num_clbits == 0:
        circuit = circuit.copy()
        circuit.measure_all()
    result = AerSampler(seed=seed).run([circuit], shots=shots).result()[0]
    register = next(iter(result.data.keys()))
    return dict(getattr(result.data, register).get_counts())

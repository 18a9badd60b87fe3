def observable_verifier_z_parity(counts, qubits):
    """Stands in for an observable_ function estimating <Z_q1 Z_q2 ...> from measurement counts.

    Args:
        counts: {bitstring: count} with little-endian bitstrings (qubit 0 rightmost), as from effector_verifier_sampler.
        qubits: the qubits whose Z product is measured (one qubit gives <Z_q>).
    Returns:
        The estimate of <prod_q Z_q> as a float in [-1, 1].
    """
    total = sum(counts.values())
    value = 0
    for bits, n in counts.items():
        ones = sum(bits.replace(" ", "")[::-1][q] == "1" for q in qubits)
        value += n * (-1) ** ones
    return value / total

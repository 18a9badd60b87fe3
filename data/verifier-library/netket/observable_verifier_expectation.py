def observable_verifier_expectation(vstate, operator):
    """Stands in for an observable_ function: the expectation value of any operator in a variational state.

    Args:
        vstate: a netket variational state (MCState: sampled; FullSumState: exact).
        operator: a netket operator (e.g. sum of netket.operator.spin.sigmaz(hilbert, i) * sigmaz(hilbert, j)).
    Returns:
        (mean, error): the real part of the estimate and its standard error (0 for FullSumState).
    """
    stats = vstate.expect(operator)
    error = float(stats.error_of_mean) if stats.error_of_mean == stats.error_of_mean else 0.0
    return float(stats.mean.real), error

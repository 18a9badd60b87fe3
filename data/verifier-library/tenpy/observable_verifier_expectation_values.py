import numpy as np


def observable_verifier_expectation_values(psi, ops=("Sz",)):
    """Stands in for an observable_ function measuring local operators (ITensors: expect(psi, "Sz")).

    Args:
        psi: a finite tenpy MPS.
        ops: names of on-site operators of psi's sites ("Sz", "Nu", "Nd", "Ntot", "NuNd", ...).
    Returns:
        A dict {op: numpy array of <op_i> for every site i}.
    """
    return {op: np.real_if_close(np.asarray(psi.expectation_value(op))) for op in ops}

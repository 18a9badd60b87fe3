import numpy as np


def observable_verifier_correlation_function(psi, op_i, op_j, sites_i=None, sites_j=None):
    """Stands in for an observable_ function measuring two-point correlations (ITensors: correlation_matrix(psi, "Sz", "Sz")).

    Args:
        psi: a finite tenpy MPS.
        op_i, op_j: on-site operator names ("Sz", "Cdu"/"Cu", ...); fermionic Jordan-Wigner strings are handled by tenpy.
        sites_i, sites_j: optional lists of site indices (default: all sites).
    Returns:
        A numpy array C[a, b] = <op_i(sites_i[a]) op_j(sites_j[b])> (connected part not subtracted).
    """
    return np.real_if_close(np.asarray(psi.correlation_function(op_i, op_j, sites1=sites_i, sites2=sites_j)))

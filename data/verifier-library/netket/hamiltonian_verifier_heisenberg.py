import netket as nk


def hamiltonian_verifier_heisenberg(hilbert, graph, J=1.0, sign_rule=None):
    """Stands in for a hamiltonian_ function of the antiferromagnetic Heisenberg model, in NetKet's Pauli convention:
    H = J sum_<ij> sigma_i . sigma_j  (= 4 J sum S_i . S_j in spin-1/2 units).

    Args:
        hilbert: a netket.hilbert.Spin(s=1/2), usually with total_sz=0.
        graph: a netket graph giving the bonds.
        J: exchange.
        sign_rule: None (NetKet's default Marshall rotation on bipartite graphs) or False for the bare Hamiltonian.
    Returns:
        A netket.operator.Heisenberg.
    """
    return nk.operator.Heisenberg(hilbert=hilbert, graph=graph, J=J, sign_rule=sign_rule)

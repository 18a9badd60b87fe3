import netket as nk


def hamiltonian_verifier_ising(hilbert, graph, h=1.0, J=1.0):
    """Stands in for a hamiltonian_ function of the transverse-field Ising model, in NetKet's Pauli convention:
    H = J sum_<ij> sigma^z_i sigma^z_j - h sum_i sigma^x_i  (J = -1 is the ferromagnet).

    Args:
        hilbert: a netket.hilbert.Spin(s=1/2) (site_verifier_spin_half_hilbert), unconstrained.
        graph: a netket graph giving the bonds (lattice_verifier_chain / lattice_verifier_square).
        h: transverse field; J: zz coupling.
    Returns:
        A netket.operator.Ising.
    """
    return nk.operator.Ising(hilbert=hilbert, graph=graph, h=h, J=J)

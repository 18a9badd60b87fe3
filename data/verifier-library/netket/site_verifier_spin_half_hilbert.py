import netket as nk


def site_verifier_spin_half_hilbert(n_sites, total_sz=None):
    """Stands in for a site_ function: the spin-1/2 Hilbert space of n_sites spins (NetKet, Pauli convention: local values +-1).

    Args:
        n_sites: number of spins (graph.n_nodes).
        total_sz: None for the full space, or a fixed total S^z (e.g. 0 for the Heisenberg ground state);
            a constrained space needs an exchange sampler.
    Returns:
        A netket.hilbert.Spin(s=1/2).
    """
    return nk.hilbert.Spin(s=0.5, N=n_sites, total_sz=total_sz)

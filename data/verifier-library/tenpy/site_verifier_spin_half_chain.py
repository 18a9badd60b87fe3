from tenpy.networks.site import SpinHalfSite


def site_verifier_spin_half_chain(L, conserve="Sz"):
    """Stands in for a site_ function of a spin-1/2 chain (ITensors: siteinds("S=1/2", L; conserve_qns=true)).

    Args:
        L: number of sites.
        conserve: "Sz", "parity" or None (no charge conservation).
    Returns:
        A list of L tenpy SpinHalfSite objects (operators Sz, Sp, Sm, Sigmax, ...; states "up", "down"),
        ready for MPS.from_product_state(sites, states) and for a TrivialLattice/Chain.
    """
    site = SpinHalfSite(conserve=conserve)
    return [site] * L

from tenpy.networks.site import SpinSite


def site_verifier_spin_one_chain(L, conserve="Sz"):
    """Stands in for a site_ function of a spin-1 chain (ITensors: siteinds("S=1", L; conserve_qns=true)).

    Args:
        L: number of sites.
        conserve: "Sz", "parity" or None.
    Returns:
        A list of L tenpy SpinSite(S=1) objects (operators Sz, Sp, Sm, Sx, Sy; states "up", "0", "down").
    """
    site = SpinSite(S=1.0, conserve=conserve)
    return [site] * L

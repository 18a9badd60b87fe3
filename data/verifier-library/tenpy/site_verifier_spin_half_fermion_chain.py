from tenpy.networks.site import SpinHalfFermionSite


def site_verifier_spin_half_fermion_chain(L, cons_N="N", cons_Sz="Sz"):
    """Stands in for a site_ function of spinful fermions, e.g. a Hubbard chain (ITensors: siteinds("Electron", L; conserve_qns=true)).

    Args:
        L: number of sites.
        cons_N: "N" (conserve total particle number), "parity" or None.
        cons_Sz: "Sz" (conserve N_up - N_down, i.e. both spin populations with cons_N="N"), "parity" or None.
    Returns:
        A list of L tenpy SpinHalfFermionSite objects (operators Cdu, Cu, Cdd, Cd, Nu, Nd, NuNd, Ntot, Sz, JW;
        states "empty", "up", "down", "full").
    """
    site = SpinHalfFermionSite(cons_N=cons_N, cons_Sz=cons_Sz)
    return [site] * L

from tenpy.networks.mps import MPS


def initialstate_verifier_product_state(sites, states):
    """Stands in for an initialstate_ function (ITensors: MPS(sites, states) / productMPS).

    Args:
        sites: list of tenpy sites (or a tenpy Lattice; its mps_sites() are used).
        states: one local state per site, by name ("up", "down", "empty", "full", "0", ...) or index; the
            product state fixes the conserved charges (particle numbers, Sz) DMRG then keeps.
    Returns:
        A finite tenpy MPS in that product state.
    """
    if hasattr(sites, "mps_sites"):
        sites = sites.mps_sites()
    if len(states) != len(sites):
        raise ValueError(f"got {len(states)} states for {len(sites)} sites")
    return MPS.from_product_state(sites, list(states), bc="finite", unit_cell_width=len(sites))

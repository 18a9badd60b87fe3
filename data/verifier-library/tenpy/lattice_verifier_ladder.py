from tenpy.models.lattice import Ladder


def lattice_verifier_ladder(site, L, bc="open"):
    """Stands in for a lattice_ function of a two-leg ladder (e.g. a 2 x L Hubbard ladder).

    Args:
        site: one tenpy Site, placed on both legs.
        L: number of rungs (2 * L sites; MPS order snakes rung by rung: (x, leg) -> 2 * x + leg).
        bc: "open" or "periodic" along the legs.
    Returns:
        A tenpy Ladder lattice with bc_MPS="finite"; lat.pairs["nearest_neighbors"] holds rungs and leg bonds.
    """
    return Ladder(L, site, bc=bc, bc_MPS="finite")

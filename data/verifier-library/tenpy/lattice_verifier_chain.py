from tenpy.models.lattice import Chain


def lattice_verifier_chain(site, L, bc="open"):
    """Stands in for a lattice_ function of a one-dimensional chain.

    Args:
        site: one tenpy Site (e.g. SpinHalfSite(conserve="Sz")), repeated on every lattice site.
        L: number of sites.
        bc: "open" or "periodic" (periodic couplings on a finite MPS).
    Returns:
        A tenpy Chain lattice with bc_MPS="finite"; lat.mps_sites() gives the site list in MPS order and
        lat.pairs["nearest_neighbors"] the bonds.
    """
    return Chain(L, site, bc=bc, bc_MPS="finite")

from pyscf import gto


def site_verifier_molecule(atom, basis="sto-3g", charge=0, spin=0, unit="Angstrom"):
    """Stands in for a site_ function: the molecular system (ORCA: the * xyz charge multiplicity block and basis keyword).

    Args:
        atom: geometry, e.g. "H 0 0 0; H 0 0 0.74" (or a list of (symbol, (x, y, z))).
        basis: basis-set name ("sto-3g", "def2-svp", "cc-pvdz", ...).
        charge: total charge; spin: 2S = N_alpha - N_beta (ORCA multiplicity - 1).
        unit: "Angstrom" or "Bohr".
    Returns:
        A built pyscf.gto.Mole (verbose=0).
    """
    return gto.M(atom=atom, basis=basis, charge=charge, spin=spin, unit=unit, verbose=0)

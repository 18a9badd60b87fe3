from pyscf import dft, scf


def hamiltonian_verifier_mean_field(mol, method="RKS", xc="b3lyp"):
    """Stands in for a hamiltonian_ function: the electronic model, i.e. the mean-field method and functional
    (ORCA: the simple-input line, e.g. "! UKS B3LYP").

    Args:
        mol: a pyscf Mole (site_verifier_molecule).
        method: "RHF", "UHF", "ROHF", "RKS", "UKS" or "ROKS".
        xc: exchange-correlation functional for Kohn-Sham methods (ignored for Hartree-Fock).
    Returns:
        An unconverged pyscf mean-field object; run it with effector_verifier_scf.
    """
    kinds = {"RHF": scf.RHF, "UHF": scf.UHF, "ROHF": scf.ROHF, "RKS": dft.RKS, "UKS": dft.UKS, "ROKS": dft.ROKS}
    if method.upper() not in kinds:
        raise ValueError(f"unknown method {method!r}; use one of {', '.join(kinds)}")
    mf = kinds[method.upper()](mol)
    if method.upper().endswith("KS"):
        mf.xc = xc
    return mf

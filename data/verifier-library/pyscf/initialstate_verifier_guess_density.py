def initialstate_verifier_guess_density(mf, key="minao"):
    """Stands in for an initialstate_ function: the initial density-matrix guess of an SCF (ORCA: %scf Guess ... end).

    Args:
        mf: a pyscf mean-field object (hamiltonian_verifier_mean_field).
        key: "minao" (superposition of atomic densities), "atom", "huckel" or "1e".
    Returns:
        The guess density matrix (a (2, nao, nao) array for unrestricted methods), to pass as dm0.
    """
    return mf.get_init_guess(key=key)

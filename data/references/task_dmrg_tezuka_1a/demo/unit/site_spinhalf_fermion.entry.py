def main():
    site = site_spinhalf_fermion()
    lattice = lattice_verifier_chain(site, 4)
    model = hamiltonian_verifier_hubbard(lattice, t=1.0, U=2.0)
    psi0 = initialstate_verifier_product_state(lattice, ["up", "down", "up", "down"])
    energy, psi = effector_verifier_dmrg(model, psi0, max_sweeps=4, chi_max=16)
    print(observable_verifier_expectation_values(psi, ops=("Nu", "Nd")))

def main():
    sites = site_verifier_spin_half_fermion_chain(4)
    lattice = lattice_verifier_chain(sites[0], 4)
    model = hamiltonian_verifier_hubbard(lattice, t=1.0, U=2.0)
    psi0 = initialstate_verifier_product_state(sites, ["up", "down", "up", "down"])
    energy, psi = effector_dmrg_ground_state(model, psi0, 16, 4)
    print(energy, observable_verifier_expectation_values(psi, ops=("Nu", "Nd")))

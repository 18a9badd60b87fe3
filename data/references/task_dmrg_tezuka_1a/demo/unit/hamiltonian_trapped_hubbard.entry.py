def main():
    sites = site_verifier_spin_half_fermion_chain(4)
    lattice = lattice_verifier_chain(sites[0], 4)
    model = hamiltonian_trapped_hubbard(lattice, 1.0, 2.0, 0.5)
    psi0 = initialstate_verifier_product_state(sites, ["up", "down", "up", "down"])
    energy, psi = effector_verifier_dmrg(model, psi0, max_sweeps=4, chi_max=16)
    print(energy, observable_verifier_expectation_values(psi, ops=("Ntot",)))

def main():
    sites = site_verifier_spin_half_fermion_chain(4)
    lattice = lattice_verifier_chain(sites[0], 4)
    model = hamiltonian_verifier_hubbard(lattice, t=1.0, U=2.0)
    psi0 = initialstate_verifier_product_state(sites, ["up", "down", "up", "down"])
    energy, psi = effector_verifier_dmrg(model, psi0, max_sweeps=4, chi_max=16)
    n_up, n_down = observable_spin_densities(psi)
    print(n_up, n_down)

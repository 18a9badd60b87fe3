def main():
    sites = site_verifier_spin_half_fermion_chain(4)
    lattice = lattice_open_chain(4, sites[0])
    model = hamiltonian_verifier_hubbard(lattice, t=1.0, U=2.0)
    psi0 = initialstate_verifier_product_state(lattice, ["up", "down", "up", "down"])
    energy, psi = effector_verifier_dmrg(model, psi0, max_sweeps=4, chi_max=16)
    print(energy)

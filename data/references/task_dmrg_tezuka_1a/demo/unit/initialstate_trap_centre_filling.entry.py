def main():
    sites = site_verifier_spin_half_fermion_chain(6)
    lattice = lattice_verifier_chain(sites[0], 6)
    psi0 = initialstate_trap_centre_filling(lattice, 2, 2)
    print(type(psi0).__name__, psi0)

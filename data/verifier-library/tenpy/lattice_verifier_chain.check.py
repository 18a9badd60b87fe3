# expected: a 6-site open chain has 6 MPS sites and 5 nearest-neighbour bonds; its Heisenberg energy equals the one built from the plain site list (abs tol 1e-9)
# uses: site_verifier_spin_half_chain, hamiltonian_verifier_heisenberg, effector_verifier_exact_diagonalization
import json
import sys

from lattice_verifier_chain import lattice_verifier_chain
from site_verifier_spin_half_chain import site_verifier_spin_half_chain
from hamiltonian_verifier_heisenberg import hamiltonian_verifier_heisenberg
from effector_verifier_exact_diagonalization import effector_verifier_exact_diagonalization

sites = site_verifier_spin_half_chain(6)
lat = lattice_verifier_chain(sites[0], 6)
u1, u2, dx = lat.pairs["nearest_neighbors"][0]
n_bonds = len(lat.possible_couplings(u1, u2, dx)[0])
e_lat = effector_verifier_exact_diagonalization(hamiltonian_verifier_heisenberg(lat), charge_sector=[0])[0]
e_list = effector_verifier_exact_diagonalization(hamiltonian_verifier_heisenberg(sites), charge_sector=[0])[0]
ok = bool(lat.N_sites == 6 and n_bonds == 5 and abs(e_lat - e_list) < 1e-9)
print("PHYSVEC_RESULT " + json.dumps({"name": "chain_heisenberg_energy", "value": e_lat, "expected": e_list, "bonds": n_bonds, "ok": ok}))
sys.exit(0 if ok else 1)

# expected: a 2x2 ladder is a 4-site ring; the free-fermion Hubbard energy with one up and one down fermion is -4 (abs tol 1e-8)
# uses: site_verifier_spin_half_fermion_chain, hamiltonian_verifier_hubbard, effector_verifier_exact_diagonalization
import json
import sys

from lattice_verifier_ladder import lattice_verifier_ladder
from site_verifier_spin_half_fermion_chain import site_verifier_spin_half_fermion_chain
from hamiltonian_verifier_hubbard import hamiltonian_verifier_hubbard
from effector_verifier_exact_diagonalization import effector_verifier_exact_diagonalization

lat = lattice_verifier_ladder(site_verifier_spin_half_fermion_chain(1)[0], 2)
model = hamiltonian_verifier_hubbard(lat, t=1.0, U=0.0)
energy = effector_verifier_exact_diagonalization(model, charge_sector=[2, 0])[0]
ok = bool(lat.N_sites == 4 and abs(energy - (-4.0)) < 1e-8)
print("PHYSVEC_RESULT " + json.dumps({"name": "ladder_2x2_free_fermion_energy", "value": energy, "expected": -4.0, "ok": ok}))
sys.exit(0 if ok else 1)

# expected: two-site Hubbard at U=0 with one up and one down fermion, ground-state energy -2 (abs tol 1e-8)
# uses: hamiltonian_verifier_hubbard, initialstate_verifier_product_state, effector_verifier_dmrg
import json
import sys

from site_verifier_spin_half_fermion_chain import site_verifier_spin_half_fermion_chain
from hamiltonian_verifier_hubbard import hamiltonian_verifier_hubbard
from initialstate_verifier_product_state import initialstate_verifier_product_state
from effector_verifier_dmrg import effector_verifier_dmrg

sites = site_verifier_spin_half_fermion_chain(2)
assert len(sites) == 2 and "NuNd" in sites[0].opnames, "expected 2 spinful fermion sites"
model = hamiltonian_verifier_hubbard(sites, t=1.0, U=0.0)
energy, _ = effector_verifier_dmrg(model, initialstate_verifier_product_state(sites, ["up", "down"]), max_sweeps=10, chi_max=8)
ok = abs(energy - (-2.0)) < 1e-8
print("PHYSVEC_RESULT " + json.dumps({"name": "two_site_hubbard_U0_energy", "value": energy, "expected": -2.0, "ok": ok}))
sys.exit(0 if ok else 1)

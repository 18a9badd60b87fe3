# expected: two-site Heisenberg ground-state energy -0.75 (abs tol 1e-8), 2 sites with an Sz operator
# uses: hamiltonian_verifier_heisenberg, initialstate_verifier_product_state, effector_verifier_dmrg
import json
import sys

from site_verifier_spin_half_chain import site_verifier_spin_half_chain
from hamiltonian_verifier_heisenberg import hamiltonian_verifier_heisenberg
from initialstate_verifier_product_state import initialstate_verifier_product_state
from effector_verifier_dmrg import effector_verifier_dmrg

sites = site_verifier_spin_half_chain(2)
assert len(sites) == 2 and "Sz" in sites[0].opnames, "expected 2 spin-1/2 sites with an Sz operator"
model = hamiltonian_verifier_heisenberg(sites, J=1.0)
energy, _ = effector_verifier_dmrg(model, initialstate_verifier_product_state(sites, ["up", "down"]), max_sweeps=10, chi_max=4)
ok = abs(energy - (-0.75)) < 1e-8
print("PHYSVEC_RESULT " + json.dumps({"name": "two_site_heisenberg_energy", "value": energy, "expected": -0.75, "ok": ok}))
sys.exit(0 if ok else 1)

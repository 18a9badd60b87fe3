# expected: two-site spin-1 Heisenberg ground-state energy -2 (singlet, S(S+1)/2 - 2 = -2; abs tol 1e-8)
# uses: hamiltonian_verifier_heisenberg, initialstate_verifier_product_state, effector_verifier_dmrg
import json
import sys

from site_verifier_spin_one_chain import site_verifier_spin_one_chain
from hamiltonian_verifier_heisenberg import hamiltonian_verifier_heisenberg
from initialstate_verifier_product_state import initialstate_verifier_product_state
from effector_verifier_dmrg import effector_verifier_dmrg

sites = site_verifier_spin_one_chain(2)
assert len(sites) == 2 and sites[0].dim == 3, "expected 2 spin-1 sites"
model = hamiltonian_verifier_heisenberg(sites, J=1.0)
energy, _ = effector_verifier_dmrg(model, initialstate_verifier_product_state(sites, ["up", "down"]), max_sweeps=10, chi_max=9)
ok = abs(energy - (-2.0)) < 1e-8
print("PHYSVEC_RESULT " + json.dumps({"name": "two_site_spin_one_heisenberg_energy", "value": energy, "expected": -2.0, "ok": ok}))
sys.exit(0 if ok else 1)

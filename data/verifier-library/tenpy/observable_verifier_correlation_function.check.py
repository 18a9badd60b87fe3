# expected: two-site Heisenberg singlet has <Sz_0 Sz_1> = -0.25 and <Sz_0 Sz_0> = 0.25 (abs tol 1e-8)
# uses: site_verifier_spin_half_chain, hamiltonian_verifier_heisenberg, initialstate_verifier_product_state, effector_verifier_dmrg
import json
import sys

from observable_verifier_correlation_function import observable_verifier_correlation_function
from site_verifier_spin_half_chain import site_verifier_spin_half_chain
from hamiltonian_verifier_heisenberg import hamiltonian_verifier_heisenberg
from initialstate_verifier_product_state import initialstate_verifier_product_state
from effector_verifier_dmrg import effector_verifier_dmrg

sites = site_verifier_spin_half_chain(2)
_, psi = effector_verifier_dmrg(hamiltonian_verifier_heisenberg(sites), initialstate_verifier_product_state(sites, ["up", "down"]), max_sweeps=10, chi_max=4)
corr = observable_verifier_correlation_function(psi, "Sz", "Sz")
ok = corr.shape == (2, 2) and abs(corr[0, 1] + 0.25) < 1e-8 and abs(corr[0, 0] - 0.25) < 1e-8
print("PHYSVEC_RESULT " + json.dumps({"name": "singlet_szsz", "value": float(corr[0, 1]), "expected": -0.25, "ok": bool(ok)}))
sys.exit(0 if ok else 1)

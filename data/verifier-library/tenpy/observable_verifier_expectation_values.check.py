# expected: Hubbard dimer ground state at U=2 with one up + one down fermion has <Nu_i> = <Nd_i> = 0.5 and double occupancy <NuNd_i> = (1 - U/sqrt(U^2+16))/4 = 0.1381966 (abs tol 1e-7)
# uses: site_verifier_spin_half_fermion_chain, hamiltonian_verifier_hubbard, initialstate_verifier_product_state, effector_verifier_dmrg
import json
import math
import sys

import numpy as np

from observable_verifier_expectation_values import observable_verifier_expectation_values
from site_verifier_spin_half_fermion_chain import site_verifier_spin_half_fermion_chain
from hamiltonian_verifier_hubbard import hamiltonian_verifier_hubbard
from initialstate_verifier_product_state import initialstate_verifier_product_state
from effector_verifier_dmrg import effector_verifier_dmrg

sites = site_verifier_spin_half_fermion_chain(2)
U = 2.0
_, psi = effector_verifier_dmrg(hamiltonian_verifier_hubbard(sites, t=1.0, U=U), initialstate_verifier_product_state(sites, ["up", "down"]), max_sweeps=10, chi_max=8)
values = observable_verifier_expectation_values(psi, ["Nu", "Nd", "NuNd"])
d_exact = (1 - U / math.sqrt(U * U + 16)) / 4
ok = bool(np.allclose(values["Nu"], 0.5, atol=1e-7) and np.allclose(values["Nd"], 0.5, atol=1e-7) and np.allclose(values["NuNd"], d_exact, atol=1e-7))
print("PHYSVEC_RESULT " + json.dumps({"name": "hubbard_dimer_double_occupancy", "value": [float(x) for x in values["NuNd"]], "expected": [d_exact, d_exact], "ok": ok}))
sys.exit(0 if ok else 1)

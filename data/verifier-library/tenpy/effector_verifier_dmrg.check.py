# expected: DMRG on the open 8-site spin-1/2 Heisenberg chain matches exact diagonalisation, -3.374932598687897 (abs tol 1e-7)
# uses: site_verifier_spin_half_chain, hamiltonian_verifier_heisenberg, initialstate_verifier_product_state, effector_verifier_exact_diagonalization
import json
import sys

from effector_verifier_dmrg import effector_verifier_dmrg
from site_verifier_spin_half_chain import site_verifier_spin_half_chain
from hamiltonian_verifier_heisenberg import hamiltonian_verifier_heisenberg
from initialstate_verifier_product_state import initialstate_verifier_product_state
from effector_verifier_exact_diagonalization import effector_verifier_exact_diagonalization

sites = site_verifier_spin_half_chain(8)
model = hamiltonian_verifier_heisenberg(sites, J=1.0)
exact = effector_verifier_exact_diagonalization(model, charge_sector=[0])[0]
energy, psi = effector_verifier_dmrg(model, initialstate_verifier_product_state(sites, ["up", "down"] * 4), max_sweeps=10, chi_max=32)
ok = abs(energy - exact) < 1e-7 and psi.L == 8
print("PHYSVEC_RESULT " + json.dumps({"name": "dmrg_heisenberg_L8_energy", "value": energy, "expected": exact, "ok": ok}))
sys.exit(0 if ok else 1)

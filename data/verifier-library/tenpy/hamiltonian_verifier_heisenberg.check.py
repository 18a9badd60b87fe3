# expected: open 4-site spin-1/2 Heisenberg chain ground-state energy -1.6160254037844386 = -(3 + 2*sqrt(3))/4 (abs tol 1e-9)
# uses: site_verifier_spin_half_chain, effector_verifier_exact_diagonalization
import json
import math
import sys

from hamiltonian_verifier_heisenberg import hamiltonian_verifier_heisenberg
from site_verifier_spin_half_chain import site_verifier_spin_half_chain
from effector_verifier_exact_diagonalization import effector_verifier_exact_diagonalization

expected = -(3 + 2 * math.sqrt(3)) / 4
model = hamiltonian_verifier_heisenberg(site_verifier_spin_half_chain(4), J=1.0)
energy = effector_verifier_exact_diagonalization(model, charge_sector=[0])[0]
ok = bool(abs(energy - expected) < 1e-9)
print("PHYSVEC_RESULT " + json.dumps({"name": "heisenberg_L4_energy", "value": energy, "expected": expected, "ok": ok}))
sys.exit(0 if ok else 1)

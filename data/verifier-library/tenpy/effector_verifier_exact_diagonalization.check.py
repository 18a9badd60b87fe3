# expected: exact diagonalisation of the two-site spin-1/2 Heisenberg bond gives the singlet -0.75 and the triplet +0.25 (abs tol 1e-12)
# uses: site_verifier_spin_half_chain, hamiltonian_verifier_heisenberg
import json
import sys

from effector_verifier_exact_diagonalization import effector_verifier_exact_diagonalization
from site_verifier_spin_half_chain import site_verifier_spin_half_chain
from hamiltonian_verifier_heisenberg import hamiltonian_verifier_heisenberg

energies = effector_verifier_exact_diagonalization(hamiltonian_verifier_heisenberg(site_verifier_spin_half_chain(2, conserve=None)), n_states=4)
expected = [-0.75, 0.25, 0.25, 0.25]
ok = all(abs(a - b) < 1e-12 for a, b in zip(energies, expected)) and len(energies) == 4
print("PHYSVEC_RESULT " + json.dumps({"name": "two_site_spectrum", "value": [float(e) for e in energies], "expected": expected, "ok": ok}))
sys.exit(0 if ok else 1)

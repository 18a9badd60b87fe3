# expected: Lanczos ground energy of the 6-site periodic Heisenberg ring (Pauli units) equals 4 * -2.8027756 = -11.2111026 (abs tol 1e-6)
# uses: lattice_verifier_chain, site_verifier_spin_half_hilbert, hamiltonian_verifier_heisenberg
import json
import sys

from effector_verifier_exact_ground_state import effector_verifier_exact_ground_state
from lattice_verifier_chain import lattice_verifier_chain
from site_verifier_spin_half_hilbert import site_verifier_spin_half_hilbert
from hamiltonian_verifier_heisenberg import hamiltonian_verifier_heisenberg

graph = lattice_verifier_chain(6)
H = hamiltonian_verifier_heisenberg(site_verifier_spin_half_hilbert(6, total_sz=0), graph, J=1.0)
energy = float(effector_verifier_exact_ground_state(H, k=1)[0])
expected = -11.211102550927978
ok = abs(energy - expected) < 1e-6
print("PHYSVEC_RESULT " + json.dumps({"name": "heisenberg_ring6_energy", "value": energy, "expected": expected, "ok": ok}))
sys.exit(0 if ok else 1)

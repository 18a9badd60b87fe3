# expected: open two-spin Heisenberg bond in Pauli units: singlet energy -3 (= 4 * -0.75; abs tol 1e-8)
# uses: lattice_verifier_chain, site_verifier_spin_half_hilbert
import json
import sys

import numpy as np

from hamiltonian_verifier_heisenberg import hamiltonian_verifier_heisenberg
from lattice_verifier_chain import lattice_verifier_chain
from site_verifier_spin_half_hilbert import site_verifier_spin_half_hilbert

H = hamiltonian_verifier_heisenberg(site_verifier_spin_half_hilbert(2, total_sz=0), lattice_verifier_chain(2, pbc=False), J=1.0)
energy = float(np.linalg.eigvalsh(H.to_dense())[0])
ok = abs(energy - (-3.0)) < 1e-8
print("PHYSVEC_RESULT " + json.dumps({"name": "heisenberg_dimer_energy", "value": energy, "expected": -3.0, "ok": ok}))
sys.exit(0 if ok else 1)

# expected: two-spin Ising bond H = -s^z s^z - h (s^x_1 + s^x_2) (open chain, J=-1) has ground energy -sqrt(1 + 4h^2) = -2.2360680 at h=1 (abs tol 1e-8)
# uses: lattice_verifier_chain, site_verifier_spin_half_hilbert
import json
import math
import sys

import numpy as np

from hamiltonian_verifier_ising import hamiltonian_verifier_ising
from lattice_verifier_chain import lattice_verifier_chain
from site_verifier_spin_half_hilbert import site_verifier_spin_half_hilbert

graph = lattice_verifier_chain(2, pbc=False)
H = hamiltonian_verifier_ising(site_verifier_spin_half_hilbert(2), graph, h=1.0, J=-1.0)
energy = float(np.linalg.eigvalsh(H.to_dense())[0])
expected = -math.sqrt(5.0)
ok = abs(energy - expected) < 1e-8
print("PHYSVEC_RESULT " + json.dumps({"name": "ising_dimer_energy", "value": energy, "expected": expected, "ok": ok}))
sys.exit(0 if ok else 1)

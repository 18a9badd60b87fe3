# expected: two-qubit TFIM -Z0 Z1 - h (X0 + X1) has ground energy -sqrt(1 + 4h^2) = -2.2360680 at h=1 (abs tol 1e-10)
import json
import math
import sys

import numpy as np

from hamiltonian_verifier_tfim import hamiltonian_verifier_tfim

H = hamiltonian_verifier_tfim(2, J=1.0, h=1.0)
energy = float(np.linalg.eigvalsh(H.to_matrix())[0])
expected = -math.sqrt(5.0)
ok = abs(energy - expected) < 1e-10 and H.num_qubits == 2
print("PHYSVEC_RESULT " + json.dumps({"name": "tfim_dimer_energy", "value": energy, "expected": expected, "ok": ok}))
sys.exit(0 if ok else 1)

# expected: for H = Z0 Z1 + 0.7 (X0 + X1) from |00>, one Trotter step at dt=0.1 matches exp(-iHt) with fidelity > 0.999, and 20 steps at t=1 beat 1 step
import json
import sys

import numpy as np
from qiskit.quantum_info import SparsePauliOp, Statevector
from scipy.linalg import expm

from effector_verifier_trotter_circuit import effector_verifier_trotter_circuit

H = SparsePauliOp.from_list([("ZZ", 1.0), ("XI", 0.7), ("IX", 0.7)])


def fidelity(time, steps):
    exact = expm(-1j * time * H.to_matrix())[:, 0]
    trotter = Statevector(effector_verifier_trotter_circuit(H, time, steps)).data
    return abs(np.vdot(exact, trotter)) ** 2


one_step = fidelity(0.1, 1)
coarse, fine = fidelity(1.0, 1), fidelity(1.0, 20)
ok = one_step > 0.999 and (1 - fine) < (1 - coarse) / 10
print("PHYSVEC_RESULT " + json.dumps({"name": "trotter_step_fidelity", "value": one_step, "expected": 1.0, "fine": fine, "coarse": coarse, "ok": bool(ok)}))
sys.exit(0 if ok else 1)

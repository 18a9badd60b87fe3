# expected: X on qubits 0 and 2 of 3 gives basis index 0b101 = 5 with probability 1
import json
import sys

from qiskit.quantum_info import Statevector

from initialstate_verifier_basis_state import initialstate_verifier_basis_state

probabilities = Statevector(initialstate_verifier_basis_state(3, [0, 2])).probabilities()
ok = abs(probabilities[5] - 1) < 1e-12
print("PHYSVEC_RESULT " + json.dumps({"name": "basis_state_probability", "value": float(probabilities[5]), "expected": 1.0, "ok": bool(ok)}))
sys.exit(0 if ok else 1)

# expected: Bell state (H, CX): <ZZ> = 1, <XX> = 1, <ZI> = 0 exactly; with 4000 shots within 0.1
import json
import sys

from qiskit import QuantumCircuit
from qiskit.quantum_info import SparsePauliOp

from effector_verifier_estimator import effector_verifier_estimator

bell = QuantumCircuit(2)
bell.h(0)
bell.cx(0, 1)
observables = [SparsePauliOp("ZZ"), SparsePauliOp("XX"), SparsePauliOp("ZI")]
exact = effector_verifier_estimator(bell, observables)
sampled = effector_verifier_estimator(bell, observables, shots=4000)
expected = [1.0, 1.0, 0.0]
ok = all(abs(a - b) < 1e-10 for a, b in zip(exact, expected)) and all(abs(a - b) < 0.1 for a, b in zip(sampled, expected))
print("PHYSVEC_RESULT " + json.dumps({"name": "bell_zz", "value": exact[0], "expected": 1.0, "sampled": sampled, "ok": bool(ok)}))
sys.exit(0 if ok else 1)

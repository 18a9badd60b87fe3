# expected: Bell state <ZZ> = 1, <XX> = 1, <YY> = -1 (abs tol 1e-12)
import json
import sys

from qiskit import QuantumCircuit
from qiskit.quantum_info import SparsePauliOp

from observable_verifier_statevector_expectation import observable_verifier_statevector_expectation

bell = QuantumCircuit(2)
bell.h(0)
bell.cx(0, 1)
value = [observable_verifier_statevector_expectation(bell, SparsePauliOp(p)) for p in ("ZZ", "XX", "YY")]
expected = [1.0, 1.0, -1.0]
ok = all(abs(a - b) < 1e-12 for a, b in zip(value, expected))
print("PHYSVEC_RESULT " + json.dumps({"name": "bell_correlators", "value": value, "expected": expected, "ok": ok}))
sys.exit(0 if ok else 1)

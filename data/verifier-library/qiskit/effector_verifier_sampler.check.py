# expected: sampling a Bell state 2000 times gives only 00 and 11, each about half the shots
import json
import sys

from qiskit import QuantumCircuit

from effector_verifier_sampler import effector_verifier_sampler

bell = QuantumCircuit(2)
bell.h(0)
bell.cx(0, 1)
counts = effector_verifier_sampler(bell, shots=2000)
ok = set(counts) <= {"00", "11"} and sum(counts.values()) == 2000 and abs(counts.get("00", 0) - 1000) < 150
print("PHYSVEC_RESULT " + json.dumps({"name": "bell_counts", "value": counts.get("00", 0) / 2000, "expected": 0.5, "ok": bool(ok)}))
sys.exit(0 if ok else 1)

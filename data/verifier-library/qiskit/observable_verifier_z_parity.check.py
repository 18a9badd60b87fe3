# expected: sampled Bell state has <Z0 Z1> = 1 exactly and <Z0> near 0; |10> (qubit 1 set) has <Z1> = -1 and <Z0> = 1
# uses: effector_verifier_sampler
import json
import sys

from qiskit import QuantumCircuit

from observable_verifier_z_parity import observable_verifier_z_parity
from effector_verifier_sampler import effector_verifier_sampler

bell = QuantumCircuit(2)
bell.h(0)
bell.cx(0, 1)
counts = effector_verifier_sampler(bell, shots=2000)
zz, z0 = observable_verifier_z_parity(counts, [0, 1]), observable_verifier_z_parity(counts, [0])
basis = {"10": 100}
ok = zz == 1 and abs(z0) < 0.15 and observable_verifier_z_parity(basis, [1]) == -1 and observable_verifier_z_parity(basis, [0]) == 1
print("PHYSVEC_RESULT " + json.dumps({"name": "bell_zz_from_counts", "value": zz, "expected": 1.0, "ok": bool(ok)}))
sys.exit(0 if ok else 1)

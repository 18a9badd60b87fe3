# expected: 3 sites map to 6 distinct qubits, up spins on 0..2 and down spins on 3..5
import json
import sys

from site_verifier_fermion_qubit_map import site_verifier_fermion_qubit_map

m = site_verifier_fermion_qubit_map(3)
ok = sorted(m.values()) == list(range(6)) and [m[(i, "up")] for i in range(3)] == [0, 1, 2] and [m[(i, "down")] for i in range(3)] == [3, 4, 5]
print("PHYSVEC_RESULT " + json.dumps({"name": "fermion_qubit_map", "value": len(m), "expected": 6, "ok": ok}))
sys.exit(0 if ok else 1)

# expected: an open 4-site chain has bonds (0,1),(1,2),(2,3); the periodic one adds (0,3)
import json
import sys

from lattice_verifier_chain_bonds import lattice_verifier_chain_bonds

value = [lattice_verifier_chain_bonds(4), lattice_verifier_chain_bonds(4, periodic=True)]
expected = [[(0, 1), (1, 2), (2, 3)], [(0, 1), (1, 2), (2, 3), (0, 3)]]
ok = value == expected
print("PHYSVEC_RESULT " + json.dumps({"name": "chain_bonds", "value": len(value[1]), "expected": 4, "ok": ok}))
sys.exit(0 if ok else 1)

# expected: H2 in STO-3G has 2 atoms, 2 electrons and 2 basis functions; H2O has 10 electrons and 7 basis functions
import json
import sys

from site_verifier_molecule import site_verifier_molecule

h2 = site_verifier_molecule("H 0 0 0; H 0 0 0.74")
water = site_verifier_molecule("O 0 0 0; H 0 0.757 0.587; H 0 -0.757 0.587")
value = [h2.natm, h2.nelectron, h2.nao_nr(), water.nelectron, water.nao_nr()]
expected = [2, 2, 2, 10, 7]
ok = value == expected
print("PHYSVEC_RESULT " + json.dumps({"name": "molecule_sizes", "value": value, "expected": expected, "ok": ok}))
sys.exit(0 if ok else 1)

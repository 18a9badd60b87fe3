# expected: Mulliken charges of H2O (RHF/STO-3G) sum to 0, oxygen negative, both hydrogens equal and positive (abs tol 1e-6)
# uses: site_verifier_molecule, hamiltonian_verifier_mean_field, effector_verifier_scf
import json
import sys

from observable_verifier_mulliken_charges import observable_verifier_mulliken_charges
from site_verifier_molecule import site_verifier_molecule
from hamiltonian_verifier_mean_field import hamiltonian_verifier_mean_field
from effector_verifier_scf import effector_verifier_scf

_, mf = effector_verifier_scf(hamiltonian_verifier_mean_field(site_verifier_molecule("O 0 0 0; H 0 0.757 0.587; H 0 -0.757 0.587"), method="RHF"))
q = observable_verifier_mulliken_charges(mf)
ok = abs(q.sum()) < 1e-6 and q[0] < 0 < q[1] and abs(q[1] - q[2]) < 1e-6
print("PHYSVEC_RESULT " + json.dumps({"name": "water_mulliken", "value": [float(x) for x in q], "expected": "sum 0, O < 0 < H", "ok": bool(ok)}))
sys.exit(0 if ok else 1)

# expected: H2 RHF/STO-3G at 0.74 Angstrom gives -1.1167 Ha (abs tol 2e-4)
# uses: site_verifier_molecule, hamiltonian_verifier_mean_field
import json
import sys

from effector_verifier_scf import effector_verifier_scf
from site_verifier_molecule import site_verifier_molecule
from hamiltonian_verifier_mean_field import hamiltonian_verifier_mean_field

energy, mf = effector_verifier_scf(hamiltonian_verifier_mean_field(site_verifier_molecule("H 0 0 0; H 0 0 0.74"), method="RHF"))
ok = abs(energy - (-1.1167)) < 2e-4 and mf.converged
print("PHYSVEC_RESULT " + json.dumps({"name": "h2_rhf_energy", "value": energy, "expected": -1.1167, "ok": bool(ok)}))
sys.exit(0 if ok else 1)

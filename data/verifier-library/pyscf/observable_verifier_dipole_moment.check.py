# expected: H2 has no dipole (< 1e-6 D); H2O (RHF/STO-3G) has a dipole of 1.5-2.0 D along its C2 axis (z here)
# uses: site_verifier_molecule, hamiltonian_verifier_mean_field, effector_verifier_scf
import json
import sys

from observable_verifier_dipole_moment import observable_verifier_dipole_moment
from site_verifier_molecule import site_verifier_molecule
from hamiltonian_verifier_mean_field import hamiltonian_verifier_mean_field
from effector_verifier_scf import effector_verifier_scf


def dipole(atom):
    _, mf = effector_verifier_scf(hamiltonian_verifier_mean_field(site_verifier_molecule(atom), method="RHF"))
    return observable_verifier_dipole_moment(mf)


_, h2 = dipole("H 0 0 0; H 0 0 0.74")
vector, water = dipole("O 0 0 0; H 0 0.757 0.587; H 0 -0.757 0.587")
ok = h2 < 1e-6 and 1.5 < water < 2.0 and abs(vector[2]) > 0.99 * water
print("PHYSVEC_RESULT " + json.dumps({"name": "water_dipole_debye", "value": water, "expected": [1.5, 2.0], "ok": bool(ok)}))
sys.exit(0 if ok else 1)

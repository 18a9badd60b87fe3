# expected: UHF on the hydrogen atom (spin=1, STO-3G) gives -0.4665819 Ha (one electron: exact in the basis, abs tol 1e-6); an RKS object carries its functional
# uses: site_verifier_molecule
import json
import sys

from hamiltonian_verifier_mean_field import hamiltonian_verifier_mean_field
from site_verifier_molecule import site_verifier_molecule

mf = hamiltonian_verifier_mean_field(site_verifier_molecule("H 0 0 0", spin=1), method="UHF")
energy = float(mf.kernel())
ks = hamiltonian_verifier_mean_field(site_verifier_molecule("H 0 0 0; H 0 0 0.74"), method="RKS", xc="pbe")
expected = -0.466581849557
ok = abs(energy - expected) < 1e-6 and ks.xc == "pbe"
print("PHYSVEC_RESULT " + json.dumps({"name": "h_atom_uhf_energy", "value": energy, "expected": expected, "ok": bool(ok)}))
sys.exit(0 if ok else 1)

# expected: for H2 RHF/STO-3G the two orbital energies are returned in eV (HOMO < 0 < LUMO, gap = LUMO - HOMO) and match mf.mo_energy * 27.2114
# uses: site_verifier_molecule, hamiltonian_verifier_mean_field, effector_verifier_scf
import json
import sys

from observable_verifier_orbital_energies import observable_verifier_orbital_energies
from site_verifier_molecule import site_verifier_molecule
from hamiltonian_verifier_mean_field import hamiltonian_verifier_mean_field
from effector_verifier_scf import effector_verifier_scf

_, mf = effector_verifier_scf(hamiltonian_verifier_mean_field(site_verifier_molecule("H 0 0 0; H 0 0 0.74"), method="RHF"))
orbitals = observable_verifier_orbital_energies(mf)
homo_expected = float(mf.mo_energy[0]) * 27.211386245988
ok = orbitals["homo"] < 0 < orbitals["lumo"] and abs(orbitals["homo"] - homo_expected) < 1e-9 and abs(orbitals["gap"] - (orbitals["lumo"] - orbitals["homo"])) < 1e-12
print("PHYSVEC_RESULT " + json.dumps({"name": "h2_homo_ev", "value": orbitals["homo"], "expected": homo_expected, "gap": orbitals["gap"], "ok": bool(ok)}))
sys.exit(0 if ok else 1)

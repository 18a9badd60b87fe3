# expected: the "atom" guess for H2O (RHF/STO-3G) holds 10 electrons, trace(D S) = 10 (abs tol 1e-6); an SCF started from the minao guess reaches the default SCF energy (abs tol 1e-8)
# uses: site_verifier_molecule, hamiltonian_verifier_mean_field
import json
import sys

import numpy as np

from initialstate_verifier_guess_density import initialstate_verifier_guess_density
from site_verifier_molecule import site_verifier_molecule
from hamiltonian_verifier_mean_field import hamiltonian_verifier_mean_field

mol = site_verifier_molecule("O 0 0 0; H 0 0.757 0.587; H 0 -0.757 0.587")
dm = initialstate_verifier_guess_density(hamiltonian_verifier_mean_field(mol, method="RHF"), key="atom")
electrons = float(np.trace(dm @ mol.intor("int1e_ovlp")))
reference = hamiltonian_verifier_mean_field(mol, method="RHF").kernel()
started = hamiltonian_verifier_mean_field(mol, method="RHF")
energy = started.kernel(dm0=initialstate_verifier_guess_density(started, key="minao"))
ok = abs(electrons - 10) < 1e-6 and abs(energy - reference) < 1e-8
print("PHYSVEC_RESULT " + json.dumps({"name": "guess_electron_count", "value": electrons, "expected": 10, "ok": bool(ok)}))
sys.exit(0 if ok else 1)

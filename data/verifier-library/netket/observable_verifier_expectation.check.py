# expected: in the exact (full-summation) ground state of the two-spin Heisenberg bond, <sigma^z_0 sigma^z_1> = -1 and <H> = -3 (abs tol 1e-6)
# uses: lattice_verifier_chain, site_verifier_spin_half_hilbert, hamiltonian_verifier_heisenberg
import json
import sys

import netket as nk
import numpy as np

from observable_verifier_expectation import observable_verifier_expectation
from lattice_verifier_chain import lattice_verifier_chain
from site_verifier_spin_half_hilbert import site_verifier_spin_half_hilbert
from hamiltonian_verifier_heisenberg import hamiltonian_verifier_heisenberg

hilbert = site_verifier_spin_half_hilbert(2)
H = hamiltonian_verifier_heisenberg(hilbert, lattice_verifier_chain(2, pbc=False), J=1.0, sign_rule=False)
ground = np.linalg.eigh(H.to_dense())[1][:, 0]
# A full-summation state whose log-amplitudes are the exact ground state's (a table model).
table = nk.models.LogStateVector(hilbert, param_dtype=complex)
vstate = nk.vqs.FullSumState(hilbert, table)
vstate.parameters = {"logstate": np.log(ground.astype(complex) + 0j)}
zz = nk.operator.spin.sigmaz(hilbert, 0) * nk.operator.spin.sigmaz(hilbert, 1)
value = [observable_verifier_expectation(vstate, zz)[0], observable_verifier_expectation(vstate, H)[0]]
ok = abs(value[0] + 1) < 1e-6 and abs(value[1] + 3) < 1e-6
print("PHYSVEC_RESULT " + json.dumps({"name": "singlet_zz_and_energy", "value": value, "expected": [-1.0, -3.0], "ok": bool(ok)}))
sys.exit(0 if ok else 1)

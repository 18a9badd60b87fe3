# expected: an alpha=1 RBM on 4 spins has 4 + 4 + 16 = 24 parameters; its sampled energy lies within the exact spectrum of the 4-site TFIM
# uses: lattice_verifier_chain, site_verifier_spin_half_hilbert, hamiltonian_verifier_ising
import json
import sys

import numpy as np

from initialstate_verifier_rbm_state import initialstate_verifier_rbm_state
from lattice_verifier_chain import lattice_verifier_chain
from site_verifier_spin_half_hilbert import site_verifier_spin_half_hilbert
from hamiltonian_verifier_ising import hamiltonian_verifier_ising

graph = lattice_verifier_chain(4)
hilbert = site_verifier_spin_half_hilbert(4)
H = hamiltonian_verifier_ising(hilbert, graph, h=1.0, J=-1.0)
spectrum = np.linalg.eigvalsh(H.to_dense())
vstate = initialstate_verifier_rbm_state(hilbert, alpha=1, n_samples=256)
energy = float(vstate.expect(H).mean.real)
ok = vstate.n_parameters == 24 and spectrum[0] - 1e-6 <= energy <= spectrum[-1] + 1e-6
print("PHYSVEC_RESULT " + json.dumps({"name": "rbm_state_parameters", "value": vstate.n_parameters, "expected": 24, "energy": energy, "ok": bool(ok)}))
sys.exit(0 if ok else 1)

# expected: VMC (RBM alpha=1, 300 SR steps) on the 4-site periodic TFIM at h=1, J=-1 reaches the exact ground energy -5.2262519 within 1% relative error
# uses: lattice_verifier_chain, site_verifier_spin_half_hilbert, hamiltonian_verifier_ising, initialstate_verifier_rbm_state
import json
import sys

import numpy as np

from effector_verifier_vmc import effector_verifier_vmc
from lattice_verifier_chain import lattice_verifier_chain
from site_verifier_spin_half_hilbert import site_verifier_spin_half_hilbert
from hamiltonian_verifier_ising import hamiltonian_verifier_ising
from initialstate_verifier_rbm_state import initialstate_verifier_rbm_state

graph = lattice_verifier_chain(4)
hilbert = site_verifier_spin_half_hilbert(4)
H = hamiltonian_verifier_ising(hilbert, graph, h=1.0, J=-1.0)
exact = float(np.linalg.eigvalsh(H.to_dense())[0])
energy, error, history = effector_verifier_vmc(H, initialstate_verifier_rbm_state(hilbert, alpha=1, n_samples=256), n_iter=300)
ok = abs(energy - exact) / abs(exact) < 0.01 and len(history) == 300
print("PHYSVEC_RESULT " + json.dumps({"name": "vmc_tfim4_energy", "value": energy, "expected": exact, "error": error, "ok": bool(ok)}))
sys.exit(0 if ok else 1)

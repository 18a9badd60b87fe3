# expected: two-site Hubbard, one up + one down: -2 at U=0 and (U - sqrt(U^2+16))/2 = -1.2360680 at U=2; 4-site ring with two up fermions -2 (fermionic signs; hard-core bosons would give -2.828) (abs tol 1e-9)
# uses: site_verifier_fermion_qubit_map
import json
import math
import sys

import numpy as np

from hamiltonian_verifier_hubbard import hamiltonian_verifier_hubbard
from site_verifier_fermion_qubit_map import site_verifier_fermion_qubit_map


def sector_ground_energy(H, n_sites, n_up, n_down):
    qmap = site_verifier_fermion_qubit_map(n_sites)
    up = [qmap[(i, "up")] for i in range(n_sites)]
    down = [qmap[(i, "down")] for i in range(n_sites)]
    keep = [b for b in range(2 ** (2 * n_sites)) if sum((b >> q) & 1 for q in up) == n_up and sum((b >> q) & 1 for q in down) == n_down]
    matrix = H.to_matrix()[np.ix_(keep, keep)]
    return float(np.linalg.eigvalsh(matrix)[0])


values = [
    sector_ground_energy(hamiltonian_verifier_hubbard(2, t=1.0, U=0.0), 2, 1, 1),
    sector_ground_energy(hamiltonian_verifier_hubbard(2, t=1.0, U=2.0), 2, 1, 1),
    sector_ground_energy(hamiltonian_verifier_hubbard(4, t=1.0, bonds=[(0, 1), (1, 2), (2, 3), (0, 3)]), 4, 2, 0),
]
expected = [-2.0, (2 - math.sqrt(20)) / 2, -2.0]
ok = all(abs(v - e) < 1e-9 for v, e in zip(values, expected))
print("PHYSVEC_RESULT " + json.dumps({"name": "hubbard_energies", "value": values, "expected": expected, "ok": ok}))
sys.exit(0 if ok else 1)

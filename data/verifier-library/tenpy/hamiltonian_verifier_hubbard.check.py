# expected: two-site Hubbard (t=1, one up + one down) ground-state energies -2 at U=0 and (U - sqrt(U^2 + 16))/2 = -1.2360680 at U=2; a 4-site ring with two up fermions -2 (fermionic signs; hard-core bosons would give -2.828) (abs tol 1e-8)
# uses: site_verifier_spin_half_fermion_chain, effector_verifier_exact_diagonalization
import json
import math
import sys

from hamiltonian_verifier_hubbard import hamiltonian_verifier_hubbard
from site_verifier_spin_half_fermion_chain import site_verifier_spin_half_fermion_chain
from effector_verifier_exact_diagonalization import effector_verifier_exact_diagonalization

sites2 = site_verifier_spin_half_fermion_chain(2)
# charge sector of SpinHalfFermionSite(cons_N="N", cons_Sz="Sz") is [N, 2*Sz]
e_u0 = effector_verifier_exact_diagonalization(hamiltonian_verifier_hubbard(sites2, t=1.0, U=0.0), charge_sector=[2, 0])[0]
e_u2 = effector_verifier_exact_diagonalization(hamiltonian_verifier_hubbard(sites2, t=1.0, U=2.0), charge_sector=[2, 0])[0]
ring = hamiltonian_verifier_hubbard(site_verifier_spin_half_fermion_chain(4), t=1.0, bonds=[(0, 1), (1, 2), (2, 3), (0, 3)])
e_ring = effector_verifier_exact_diagonalization(ring, charge_sector=[2, 2])[0]
expected = [-2.0, (2 - math.sqrt(20)) / 2, -2.0]
values = [e_u0, e_u2, e_ring]
ok = all(abs(v - e) < 1e-8 for v, e in zip(values, expected))
print("PHYSVEC_RESULT " + json.dumps({"name": "hubbard_energies", "value": values, "expected": expected, "ok": ok}))
sys.exit(0 if ok else 1)

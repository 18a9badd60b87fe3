# expected: 4 spins-1/2 span 16 states; the total_sz=0 sector has 6; local values are -1 and +1
import json
import sys

from site_verifier_spin_half_hilbert import site_verifier_spin_half_hilbert

full, sector = site_verifier_spin_half_hilbert(4), site_verifier_spin_half_hilbert(4, total_sz=0)
value = [full.n_states, sector.n_states, sorted(float(x) for x in full.local_states)]
expected = [16, 6, [-1.0, 1.0]]
ok = value == expected
print("PHYSVEC_RESULT " + json.dumps({"name": "spin_half_hilbert_sizes", "value": value[:2], "expected": expected[:2], "ok": ok}))
sys.exit(0 if ok else 1)

# expected: Neel state on 4 spin-1/2 sites has <Sz> = [+0.5, -0.5, +0.5, -0.5], norm 1 and bond dimension 1 (abs tol 1e-12)
# uses: site_verifier_spin_half_chain
import json
import sys

import numpy as np

from initialstate_verifier_product_state import initialstate_verifier_product_state
from site_verifier_spin_half_chain import site_verifier_spin_half_chain

psi = initialstate_verifier_product_state(site_verifier_spin_half_chain(4), ["up", "down", "up", "down"])
sz = psi.expectation_value("Sz")
expected = [0.5, -0.5, 0.5, -0.5]
ok = bool(np.allclose(sz, expected, atol=1e-12)) and abs(psi.norm - 1) < 1e-12 and max(psi.chi) == 1
print("PHYSVEC_RESULT " + json.dumps({"name": "neel_sz", "value": [float(x) for x in sz], "expected": expected, "ok": ok}))
sys.exit(0 if ok else 1)

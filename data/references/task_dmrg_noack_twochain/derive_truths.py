"""Exact truths of this task's limiting cases by exact diagonalisation (numpy/scipy, no TeNPy)."""
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "_exact"))
from exact import hubbard_densities, hubbard_ground, hubbard_szsz


def ladder(L, t=1.0, tp=1.0):
    """Sites 2x+u (x = rung, u = leg); legs then rungs."""
    bonds = [(2 * x + u, 2 * (x + 1) + u, t) for x in range(L - 1) for u in (0, 1)]
    return bonds + [(2 * x, 2 * x + 1, tp) for x in range(L)]


print("0: rung U=0", hubbard_ground(2, ladder(1), 0.0, 0.0, 1, 1)[0])
print("1: rung U=8", hubbard_ground(2, ladder(1), 8.0, 0.0, 1, 1)[0], "analytic", (8 - np.sqrt(64 + 16)) / 2)
print("2: 2x2 U=4", hubbard_ground(4, ladder(2), 4.0, 0.0, 2, 2)[0])
E, psi, ou, od = hubbard_ground(8, ladder(4), 8.0, 0.0, 4, 4)
print("3: 2x4 U=8 E", E)
print("4: 2x4 U=8 C(r) from x0=0 on leg 0", [hubbard_szsz(psi, ou, od, 0, 2 * r) for r in (1, 2, 3)])
nu, nd = hubbard_densities(psi, ou, od)
print("   2x4 totals", nu.sum(), nd.sum())

"""Exact truths by exact diagonalisation of the Bose-Hubbard model (numpy only, no NetKet)."""
from itertools import product

import numpy as np


def ground(L, N, t, U, periodic=True):
    basis = [s for s in product(range(N + 1), repeat=L) if sum(s) == N]
    index = {s: k for k, s in enumerate(basis)}
    bonds = [(i, (i + 1) % L) for i in range(L if periodic and L > 2 else L - 1)]
    H = np.zeros((len(basis), len(basis)))
    for k, s in enumerate(basis):
        H[k, k] = 0.5 * U * sum(n * (n - 1) for n in s)
        for i, j in bonds:
            for a, b in ((i, j), (j, i)):  # b+_a b_b
                if s[b] > 0:
                    s2 = list(s)
                    amp = np.sqrt(s2[b]) * np.sqrt(s2[a] + 1)
                    s2[b] -= 1
                    s2[a] += 1
                    H[index[tuple(s2)], k] -= t * amp
    return np.linalg.eigvalsh(H)[0]


print("L=6 N=6 U=0 ring:", ground(6, 6, 1.0, 0.0), "(analytic -2tN = -12)")
print("L=2 N=2 U=4 open:", ground(2, 2, 1.0, 4.0, periodic=False), "(analytic (U - sqrt(U^2+16t^2))/2 =", (4 - np.sqrt(32)) / 2, ")")
for U in (1.0, 2.0, 4.0, 8.0):
    print(f"L=6 N=6 U={U} ring:", ground(6, 6, 1.0, U))

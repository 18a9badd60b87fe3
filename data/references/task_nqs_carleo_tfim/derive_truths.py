"""Exact truths: ground-state energy of the periodic Pauli TFIM chain from its free-fermion solution.

H = -J sum sz sz - h sum sx on a ring of L sites: the ground state lies in the even-fermion-parity sector
with antiperiodic momenta k = (2n+1) pi / L, E0 = -sum_k sqrt(J^2 + h^2 - 2 J h cos k).
"""
import numpy as np


def e0(L, J, h):
    k = (2 * np.arange(L) + 1) * np.pi / L
    return -np.sum(np.sqrt(J**2 + h**2 - 2 * J * h * np.cos(k)))


for L, h in [(10, 0.0), (10, 1.0), (4, 1.0), (10, 20.0), (6, 0.5)]:
    print(f"L={L} h={h}: E0 = {e0(L, 1.0, h):.7f}")

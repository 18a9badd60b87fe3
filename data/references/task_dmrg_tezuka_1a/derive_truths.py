"""Exact truths of this task's limiting cases, by exact diagonalisation (numpy/scipy, no TeNPy)."""
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "_exact"))
from exact import hubbard_densities, hubbard_ground, lowest, spin_hamiltonian


def chain(L, t=1.0):
    return [(i, i + 1, t) for i in range(L - 1)]


def trap(L, A):
    return 4 * A / L**2 * (np.arange(L) - (L - 1) / 2) ** 2


print("0: L=2 U=0 A=0", hubbard_ground(2, chain(2), 0.0, trap(2, 0), 1, 1)[0])
print("1: L=2 U=2 A=0", hubbard_ground(2, chain(2), 2.0, trap(2, 0), 1, 1)[0], "exact 1-sqrt(5) =", 1 - 5**0.5)
print("2: L=2 U=2 A=2", hubbard_ground(2, chain(2), 2.0, trap(2, 2), 1, 1)[0], "exact 2-sqrt(5) =", 2 - 5**0.5)
E, psi, ou, od = hubbard_ground(6, chain(6), 2.0, trap(6, 2), 3, 3)
nu, nd = hubbard_densities(psi, ou, od)
print("3: L=6 sums", nu.sum(), nd.sum())
print("4: L=6 asymmetry", max(np.abs(nu - nu[::-1]).max(), np.abs(nd - nd[::-1]).max()))
L = 8
e_heis = lowest(spin_hamiltonian(L, 0.5, chain(L))[0])[0]
print("5: L=8 open Heisenberg E0/J =", e_heis, " -E0/((L-1)J) with the -n n/4 shift =", -(e_heis - (L - 1) / 4) / (L - 1))
print("6: L=8 (2,2) U=-4 A=1", hubbard_ground(8, chain(8), -4.0, trap(8, 1.0), 2, 2)[0])

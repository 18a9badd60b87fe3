"""Exact truths of this task's limiting cases (numpy/scipy exact diagonalisation, Bethe ansatz)."""
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "_exact"))
from exact import lowest, spin_hamiltonian


def chain(L):
    return [(i, i + 1, 1.0) for i in range(L - 1)]


for L in (2, 4, 10):
    print(f"L={L} open chain E0 =", lowest(spin_hamiltonian(L, 0.5, chain(L))[0])[0])
print("Bethe ansatz e_inf = 1/4 - ln 2 =", 0.25 - np.log(2))

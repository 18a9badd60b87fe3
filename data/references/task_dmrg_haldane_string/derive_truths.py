"""Exact truths of this task's limiting cases (numpy/scipy exact diagonalisation; AKLT closed forms)."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "_exact"))
from exact import lowest, spin_hamiltonian


def chain(L):
    return [(i, i + 1, 1.0) for i in range(L - 1)]


print("L=2 spin-1 E0 =", lowest(spin_hamiltonian(2, 1.0, chain(2))[0])[0])
print("L=8 spin-1 open E0 =", lowest(spin_hamiltonian(8, 1.0, chain(8))[0])[0])
print("L=6 AKLT (beta=1/3) E0 =", lowest(spin_hamiltonian(6, 1.0, chain(6), biquadratic=1 / 3)[0])[0], "vs -(2/3)(L-1) =", -2 / 3 * 5)
print("AKLT string order 4/9 =", 4 / 9)

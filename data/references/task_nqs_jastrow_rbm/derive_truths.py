"""Exact truths (numpy/scipy exact diagonalisation, no NetKet). Energies in Pauli units: 4 x (S.S)."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "_exact"))
from exact import lowest, spin_hamiltonian

print("L=2 open:", lowest(spin_hamiltonian(2, 0.5, [(0, 1, 4.0)])[0])[0])
print("L=12 ring:", lowest(spin_hamiltonian(12, 0.5, [(i, (i + 1) % 12, 4.0) for i in range(12)])[0])[0])
print("mean-field (classical Neel) energy of the L=12 ring: -L = -12")

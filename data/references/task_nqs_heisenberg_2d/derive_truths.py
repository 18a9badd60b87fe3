"""Exact truths (numpy/scipy exact diagonalisation, no NetKet). Energies in Pauli units: 4 x (S.S)."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "_exact"))
from exact import lowest, spin_hamiltonian


def grid(Lx, Ly, pbc):
    bonds = set()
    for x in range(Lx):
        for y in range(Ly):
            i = x * Ly + y
            for dx, dy in ((1, 0), (0, 1)):
                nx, ny = x + dx, y + dy
                if nx >= Lx or ny >= Ly:
                    if not pbc:
                        continue
                    nx, ny = nx % Lx, ny % Ly
                j = nx * Ly + ny
                if i != j:
                    bonds.add((min(i, j), max(i, j)))
    return [(i, j, 4.0) for i, j in sorted(bonds)]


print("2x1 open:", lowest(spin_hamiltonian(2, 0.5, grid(2, 1, False))[0])[0])
print("2x2 open:", lowest(spin_hamiltonian(4, 0.5, grid(2, 2, False))[0])[0])
print("4x4 periodic:", lowest(spin_hamiltonian(16, 0.5, grid(4, 4, True))[0])[0])
print("4x4 open:", lowest(spin_hamiltonian(16, 0.5, grid(4, 4, False))[0])[0])

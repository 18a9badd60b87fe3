"""Where the truths of task_dft_h2_dissociation come from.

* Exact non-relativistic Born-Oppenheimer values (Kolos & Wolniewicz 1965 and later refinements):
  E(R = 1.4 bohr) = -1.17447 hartree, R_e = 1.401 bohr, D_e = 4.748 eV (38 293 cm^-1); E(H) = -0.5 hartree exactly.
* FCI in STO-3G at R = 1.4 bohr: -1.1373 hartree (Szabo & Ostlund, Modern Quantum Chemistry, ch. 4), recomputed
  below with PySCF's determinant FCI solver (independent of the CISD route of the reference).
* A broken-symmetry UHF determinant of two separated H atoms is an equal mixture of singlet and triplet: <S^2> = 1.
Run: .venv/bin/python data/references/task_dft_h2_dissociation/derive_truths.py
"""
from pyscf import fci, gto, scf

mol = gto.M(atom="H 0 0 0; H 0 0 1.4", unit="Bohr", basis="sto-3g", verbose=0)
print("FCI/STO-3G at 1.4 bohr:", fci.FCI(scf.RHF(mol).run()).kernel()[0])
for basis in ("cc-pvdz", "cc-pvtz"):
    h = gto.M(atom="H 0 0 0", basis=basis, spin=1, verbose=0)
    print(f"UHF H atom {basis}:", scf.UHF(h).kernel(), " relative error vs -0.5:", abs(scf.UHF(h).kernel() + 0.5) / 0.5)

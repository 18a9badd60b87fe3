"""Numbers behind the task's truths, independent of qiskit.

* Pauli coefficients and exact electronic energy at 0.735 Å: the widely published parity-reduced H2/STO-3G
  Hamiltonian (e.g. qiskit's textbook and tutorials): II -1.052373245772859, IZ 0.39793742484318045,
  ZI -0.39793742484318045, ZZ -0.01128010425623538, XX 0.18093119978423156; its lowest eigenvalue is computed here.
* Full CI in STO-3G from PySCF's own FCI solver (total energies) at 0.735 Å and 6 Å, and 2 E(H atom, STO-3G).
* Nuclear repulsion 1/R in bohr.
Run: .venv/bin/python data/references/task_qsim_vqe_h2/derive_truths.py
"""
import numpy as np
from pyscf import fci, gto, scf

I2, Z, X = np.eye(2), np.diag([1.0, -1.0]), np.array([[0.0, 1.0], [1.0, 0.0]])
kron = np.kron
published = {"II": -1.052373245772859, "IZ": 0.39793742484318045, "ZI": -0.39793742484318045, "ZZ": -0.01128010425623538, "XX": 0.18093119978423156}
mats = {"II": kron(I2, I2), "IZ": kron(I2, Z), "ZI": kron(Z, I2), "ZZ": kron(Z, Z), "XX": kron(X, X)}
h = sum(c * mats[k] for k, c in published.items())
print("published coefficients:", list(published.values()))
print("exact electronic energy at 0.735 A:", np.linalg.eigvalsh(h)[0])
for r in (0.735, 6.0):
    mol = gto.M(atom=f"H 0 0 0; H 0 0 {r}", basis="sto-3g", verbose=0)
    mf = scf.RHF(mol).run()
    print(f"FCI total energy at {r} A:", fci.FCI(mf).kernel()[0], " E_nuc:", mol.energy_nuc(), " 1/R(bohr):", 0.52917721092 / r)
print("2 E(H, STO-3G):", 2 * scf.UHF(gto.M(atom="H 0 0 0", basis="sto-3g", spin=1, verbose=0)).kernel())

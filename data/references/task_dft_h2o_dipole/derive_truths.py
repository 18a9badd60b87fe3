"""Independent numbers for task_dft_h2o_dipole: the nuclear repulsion of the experimental geometry from Coulomb's
law by hand (no PySCF), and the symmetry zeros (C2v: the dipole lies on the C2 axis; D_inf_h for a linear H-O-H).
Run: .venv/bin/python data/references/task_dft_h2o_dipole/derive_truths.py
"""
import numpy as np

BOHR = 0.52917721092  # Å
r, angle = 0.9572 / BOHR, np.radians(104.52)
r_hh = 2 * r * np.sin(angle / 2)
print("nuclear repulsion:", 2 * 8 * 1 / r + 1 * 1 / r_hh)

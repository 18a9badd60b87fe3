"""Reference: H2 potential-energy curve with RHF, broken-symmetry UHF and full CI (PySCF), against the exact
Kolos-Wolniewicz curve.

Kolos & Wolniewicz, J. Chem. Phys. 43, 2429 (1965). Distances in bohr, energies in hartree.
For two electrons CISD is the full CI in the given basis, so the full-CI energies are computed with pyscf.ci.CISD
(much cheaper than the determinant-based pyscf.fci solver in large bases, identical results).
"""
import json

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import physvec_runtime as pv
from pyscf import ci, dft, gto, scf

HARTREE_TO_EV = 27.211386245988


def site_h2_molecule(r_bohr, basis):
    return gto.M(atom=[["H", (0.0, 0.0, 0.0)], ["H", (0.0, 0.0, r_bohr)]], unit="Bohr", basis=basis, verbose=0)


def site_h_atom(basis):
    return gto.M(atom=[["H", (0.0, 0.0, 0.0)]], basis=basis, spin=1, verbose=0)


def effector_rhf(mol, checkpoint=None):
    """With a checkpoint name, PySCF's chkfile (rewritten every SCF cycle) lives in the run's checkpoint dir
    and a retried run restarts from its orbitals; a converged SCF converges again in a cycle or two."""
    mf = scf.RHF(mol)
    pv.use_chkfile(mf, checkpoint)
    return mf.run(conv_tol=1e-10)


def effector_uhf(mol, checkpoint=None):
    """UHF of an open-shell system from the default guess. With a checkpoint name, PySCF's chkfile lives in
    the run's checkpoint dir and a retried run restarts from its orbitals."""
    mf = scf.UHF(mol)
    pv.use_chkfile(mf, checkpoint)
    return mf.run(conv_tol=1e-10)


def effector_uhf_broken_symmetry(mol, rhf, checkpoint=None):
    """UHF started from alpha/beta orbitals (g + u)/sqrt2 and (g - u)/sqrt2 (localised on opposite atoms at large R),
    so that it can leave the restricted solution beyond the Coulson-Fischer point; at short R it falls back to RHF.
    With a checkpoint name, PySCF's chkfile (rewritten every SCF cycle) lives in the run's checkpoint dir
    and a retried run restarts from its orbitals; a converged SCF converges again in a cycle or two."""
    c = rhf.mo_coeff.copy()
    homo, lumo = 0, 1
    ca, cb = c.copy(), c.copy()
    ca[:, homo] = (c[:, homo] + c[:, lumo]) / np.sqrt(2)
    cb[:, homo] = (c[:, homo] - c[:, lumo]) / np.sqrt(2)
    occ = rhf.mo_occ / 2
    dm = (ca * occ) @ ca.T, (cb * occ) @ cb.T
    mf = scf.UHF(mol)
    mf.conv_tol = 1e-10
    pv.use_chkfile(mf, checkpoint)
    mf.kernel(dm0=None if mf.init_guess == "chkfile" else np.array(dm))
    return mf


def effector_full_ci(rhf):
    """Full CI of a two-electron system (CISD is exact for two electrons)."""
    return ci.CISD(rhf).run().e_tot


def observable_dipole_debye(mf):
    return np.asarray(mf.dip_moment(unit="Debye", verbose=0))


def observable_spin_square(uhf):
    return float(uhf.spin_square()[0])


def observable_electron_count(mol, mf):
    """Number of electrons from the density integrated on a DFT grid."""
    grids = dft.gen_grid.Grids(mol)
    grids.level = 5
    grids.build()
    dm = mf.make_rdm1()
    dm = dm[0] + dm[1] if np.ndim(dm) == 3 else dm
    ao = dft.numint.eval_ao(mol, grids.coords)
    rho = dft.numint.eval_rho(mol, ao, dm)
    return float(np.dot(grids.weights, rho))


def run_dissociation_curve(distances, basis):
    e_rhf, e_uhf, e_fci = [], [], []
    for r in distances:
        mol = site_h2_molecule(r, basis)
        rhf = effector_rhf(mol, checkpoint=f"rhf_H2_R{r}_{basis}.chk")
        uhf = effector_uhf_broken_symmetry(mol, rhf, checkpoint=f"uhf_bs_H2_R{r}_{basis}.chk")
        e_rhf.append(rhf.e_tot)
        e_uhf.append(min(uhf.e_tot, rhf.e_tot))
        e_fci.append(effector_full_ci(rhf))
    return np.array(e_rhf), np.array(e_uhf), np.array(e_fci)


def run_atom_energy(basis):
    return effector_uhf(site_h_atom(basis), checkpoint=f"uhf_H_{basis}.chk").e_tot


def item_equilibrium(distances, energies):
    """Minimum of a parabola through the lowest sampled point and its neighbours."""
    k = int(np.clip(np.argmin(energies), 1, len(energies) - 2))
    a, b, c = np.polyfit(distances[k - 1:k + 2], energies[k - 1:k + 2], 2)
    r0 = -b / (2 * a)
    return float(r0), float(np.polyval([a, b, c], r0))


def plot_curves(distances, e_rhf, e_uhf, e_fci, e_atoms, basis, filename="figure.png"):
    fig, ax = plt.subplots(figsize=(5.4, 4.0))
    ax.plot(distances, e_rhf, "s-", ms=3, label="RHF")
    ax.plot(distances, e_uhf, "^-", ms=3, label="UHF (broken symmetry)")
    ax.plot(distances, e_fci, "o-", ms=3, label="full CI")
    ax.axhline(e_atoms, color="k", ls="--", lw=0.8, label="2 E(H)")
    ax.set_xlabel("R (bohr)")
    ax.set_ylabel("E (hartree)")
    ax.set_title(f"H$_2$ X$^1\\Sigma_g^+$, {basis}")
    ax.legend()
    fig.tight_layout()
    fig.savefig(filename, dpi=120)
    plt.close(fig)


def main():
    basis = "cc-pvtz"
    distances = np.array([0.6, 0.8, 1.0, 1.2, 1.3, 1.4, 1.5, 1.6, 1.8, 2.2, 2.6, 3.2, 4.0, 5.0, 6.5, 8.0, 10.0])
    e_rhf, e_uhf, e_fci = run_dissociation_curve(distances, basis)
    e_atoms = 2 * run_atom_energy(basis)
    plot_curves(distances, e_rhf, e_uhf, e_fci, e_atoms, basis)
    r_e, e_min = item_equilibrium(distances, e_fci)
    print("PHYSVEC_RESULT " + json.dumps({"name": "fci_energy_1p4", "value": float(e_fci[5])}))
    print("PHYSVEC_RESULT " + json.dumps({"name": "fci_equilibrium", "value": [r_e, e_min]}))
    print("PHYSVEC_RESULT " + json.dumps({"name": "dissociation_energy_ev", "value": (e_atoms - e_min) * HARTREE_TO_EV}))


if __name__ == "__main__":
    main()

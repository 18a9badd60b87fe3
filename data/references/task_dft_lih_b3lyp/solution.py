"""Reference: LiH ground-state potential curve with B3LYP (PySCF), equilibrium distance and dissociation energy
against the spectroscopic constants compiled by Stwalley & Zemke, J. Phys. Chem. Ref. Data 22, 87 (1993).

Distances in Å, energies in hartree; D_e = E(Li, doublet) + E(H, doublet) - E(LiH at R_e), open-shell atoms with UKS.
"""
import json

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import physvec_runtime as pv
from pyscf import dft, gto

HARTREE_TO_EV = 27.211386245988


def site_lih(r_angstrom, basis):
    return gto.M(atom=[["Li", (0.0, 0.0, 0.0)], ["H", (0.0, 0.0, r_angstrom)]], unit="Angstrom", basis=basis,
                 charge=0, spin=0, verbose=0)


def site_atom(symbol, spin, basis):
    """A free atom; spin = N_alpha - N_beta (Li and H: one unpaired electron, a doublet)."""
    return gto.M(atom=[[symbol, (0.0, 0.0, 0.0)]], basis=basis, spin=spin, verbose=0)


def effector_rks(mol, xc, grid_level, checkpoint=None):
    """With a checkpoint name, PySCF's chkfile (rewritten every SCF cycle) lives in the run's checkpoint dir
    and a retried run restarts from its orbitals; a converged SCF converges again in a cycle or two."""
    mf = dft.RKS(mol)
    mf.xc = xc
    mf.grids.level = grid_level
    mf.conv_tol = 1e-10
    pv.use_chkfile(mf, checkpoint)
    mf.kernel()
    return mf


def effector_uks(mol, xc, grid_level, checkpoint=None):
    """With a checkpoint name, PySCF's chkfile (rewritten every SCF cycle) lives in the run's checkpoint dir
    and a retried run restarts from its orbitals; a converged SCF converges again in a cycle or two."""
    mf = dft.UKS(mol)
    mf.xc = xc
    mf.grids.level = grid_level
    mf.conv_tol = 1e-10
    pv.use_chkfile(mf, checkpoint)
    mf.kernel()
    return mf


def observable_density_integrals(mf):
    """(N_alpha + N_beta, N_alpha - N_beta) from the densities integrated on the SCF's own grid."""
    mol, grids = mf.mol, mf.grids
    dm = mf.make_rdm1()
    dm_a, dm_b = (dm[0], dm[1]) if np.ndim(dm) == 3 else (dm / 2, dm / 2)
    ao = dft.numint.eval_ao(mol, grids.coords)
    rho_a = dft.numint.eval_rho(mol, ao, dm_a)
    rho_b = dft.numint.eval_rho(mol, ao, dm_b)
    return float(grids.weights @ (rho_a + rho_b)), float(grids.weights @ (rho_a - rho_b))


def observable_spin_square(mf):
    return float(mf.spin_square()[0])


def observable_dipole_debye(mf):
    return np.asarray(mf.dip_moment(unit="Debye", verbose=0))


def run_potential_curve(distances, basis, xc, grid_level):
    return np.array([effector_rks(site_lih(r, basis), xc, grid_level, checkpoint=f"rks_LiH_R{r}_{basis}_{xc}_grid{grid_level}.chk").e_tot
                     for r in distances])


def run_atom_energies(basis, xc, grid_level):
    e_li = effector_uks(site_atom("Li", 1, basis), xc, grid_level, checkpoint=f"uks_Li_{basis}_{xc}_grid{grid_level}.chk").e_tot
    e_h = effector_uks(site_atom("H", 1, basis), xc, grid_level, checkpoint=f"uks_H_{basis}_{xc}_grid{grid_level}.chk").e_tot
    return float(e_li + e_h)


def item_equilibrium(distances, energies):
    """Minimum of a parabola through the lowest sampled point and its two neighbours."""
    k = int(np.clip(np.argmin(energies), 1, len(energies) - 2))
    a, b, c = np.polyfit(distances[k - 1:k + 2], energies[k - 1:k + 2], 2)
    r0 = -b / (2 * a)
    return float(r0), float(np.polyval([a, b, c], r0))


def plot_curve(distances, energies, e_atoms, r_e, filename="figure.png"):
    fig, ax = plt.subplots(figsize=(5.2, 3.9))
    ax.plot(distances, (energies - e_atoms) * HARTREE_TO_EV, "o-", ms=3, label="B3LYP/cc-pVTZ")
    ax.axvline(1.5949, color="k", ls=":", lw=0.8, label="experimental $R_e$")
    ax.axhline(-2.515, color="k", ls="--", lw=0.8, label="experimental $-D_e$")
    ax.set_xlabel("R (Å)")
    ax.set_ylabel("E - E(Li) - E(H)  (eV)")
    ax.set_title(f"LiH X$^1\\Sigma^+$, $R_e$ = {r_e:.4f} Å")
    ax.legend()
    fig.tight_layout()
    fig.savefig(filename, dpi=120)
    plt.close(fig)


def main():
    basis, xc, grid_level = "cc-pvtz", "b3lyp", 3
    distances = np.array([1.2, 1.4, 1.5, 1.55, 1.6, 1.65, 1.8, 2.2, 2.8])
    energies = run_potential_curve(distances, basis, xc, grid_level)
    e_atoms = run_atom_energies(basis, xc, grid_level)
    r_e, e_min = item_equilibrium(distances, energies)
    plot_curve(distances, energies, e_atoms, r_e)
    print("PHYSVEC_RESULT " + json.dumps({"name": "energy_1p6", "value": float(energies[4])}))
    print("PHYSVEC_RESULT " + json.dumps({"name": "re_and_de", "value": [r_e, (e_atoms - e_min) * HARTREE_TO_EV]}))


if __name__ == "__main__":
    main()

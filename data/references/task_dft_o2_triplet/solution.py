"""Reference: the open-shell ground state of O2 (triplet, X 3Sigma_g-) with unrestricted Kohn-Sham (B3LYP), against
the closed-shell restricted singlet, in the spirit of Pople & Nesbet's unrestricted orbitals for radicals,
J. Chem. Phys. 22, 571 (1954).

Distances in Å, energies in hartree (gaps in eV). mol.spin = N_alpha - N_beta: 2 for the triplet, 0 for the singlet.
"""
import json

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import physvec_runtime as pv
from pyscf import dft, gto, scf

HARTREE_TO_EV = 27.211386245988


def site_o2(r_angstrom, basis, spin):
    return gto.M(atom=[["O", (0.0, 0.0, 0.0)], ["O", (0.0, 0.0, r_angstrom)]], unit="Angstrom", basis=basis,
                 spin=spin, verbose=0)


def site_atom(symbol, spin, basis):
    return gto.M(atom=[[symbol, (0.0, 0.0, 0.0)]], basis=basis, spin=spin, verbose=0)


def effector_uks(mol, xc, grid_level=3, checkpoint=None):
    """With a checkpoint name, PySCF's chkfile (rewritten every SCF cycle) lives in the run's checkpoint dir
    and a retried run restarts from its orbitals; a converged SCF converges again in a cycle or two."""
    mf = dft.UKS(mol)
    mf.xc = xc
    mf.grids.level = grid_level
    mf.conv_tol = 1e-9
    pv.use_chkfile(mf, checkpoint)
    mf.kernel()
    return mf


def effector_rks(mol, xc, grid_level=3, checkpoint=None):
    """With a checkpoint name, PySCF's chkfile (rewritten every SCF cycle) lives in the run's checkpoint dir
    and a retried run restarts from its orbitals; a converged SCF converges again in a cycle or two."""
    mf = dft.RKS(mol)
    mf.xc = xc
    mf.grids.level = grid_level
    mf.conv_tol = 1e-9
    pv.use_chkfile(mf, checkpoint)
    mf.kernel()
    return mf


def effector_uhf(mol):
    return scf.UHF(mol).run(conv_tol=1e-10)


def observable_spin_square(mf):
    return float(mf.spin_square()[0])


def observable_unpaired_electrons(mf):
    """N_alpha - N_beta from the spin density integrated on the SCF's grid."""
    dm_a, dm_b = mf.make_rdm1()
    ao = dft.numint.eval_ao(mf.mol, mf.grids.coords)
    spin_density = dft.numint.eval_rho(mf.mol, ao, dm_a) - dft.numint.eval_rho(mf.mol, ao, dm_b)
    return float(mf.grids.weights @ spin_density)


def observable_dipole_debye(mf):
    return np.asarray(mf.dip_moment(unit="Debye", verbose=0))


def run_curves(distances, basis, xc):
    triplet = np.array([effector_uks(site_o2(r, basis, 2), xc, checkpoint=f"uks_O2_R{r}_spin2_{basis}_{xc}.chk").e_tot for r in distances])
    singlet = np.array([effector_rks(site_o2(r, basis, 0), xc, checkpoint=f"rks_O2_R{r}_spin0_{basis}_{xc}.chk").e_tot for r in distances])
    return triplet, singlet


def run_vertical_gap(r, basis, xc):
    """E(closed-shell singlet, RKS) - E(triplet, UKS) in eV at bond length r."""
    e_t = effector_uks(site_o2(r, basis, 2), xc, checkpoint=f"uks_O2_R{r}_spin2_{basis}_{xc}.chk").e_tot
    e_s = effector_rks(site_o2(r, basis, 0), xc, checkpoint=f"rks_O2_R{r}_spin0_{basis}_{xc}.chk").e_tot
    return float((e_s - e_t) * HARTREE_TO_EV)


def item_equilibrium(distances, energies):
    """Minimum of a parabola through the lowest sampled point and its two neighbours."""
    k = int(np.clip(np.argmin(energies), 1, len(energies) - 2))
    a, b, c = np.polyfit(distances[k - 1:k + 2], energies[k - 1:k + 2], 2)
    r0 = -b / (2 * a)
    return float(r0), float(np.polyval([a, b, c], r0))


def plot_curves(distances, triplet, singlet, r_e, filename="figure.png"):
    fig, ax = plt.subplots(figsize=(5.2, 3.9))
    ref = triplet.min()
    ax.plot(distances, (triplet - ref) * HARTREE_TO_EV, "o-", ms=3, label=r"triplet $^3\Sigma_g^-$ (UKS, spin = 2)")
    ax.plot(distances, (singlet - ref) * HARTREE_TO_EV, "s-", ms=3, label="closed-shell singlet (RKS, spin = 0)")
    ax.axvline(r_e, color="k", ls=":", lw=0.8)
    ax.set_xlabel("R (Å)")
    ax.set_ylabel("E - E$_{min}$(triplet)  (eV)")
    ax.set_title(f"O$_2$, B3LYP/cc-pVDZ, triplet $R_e$ = {r_e:.4f} Å")
    ax.legend()
    fig.tight_layout()
    fig.savefig(filename, dpi=120)
    plt.close(fig)


def main():
    basis, xc = "cc-pvdz", "b3lyp"
    distances = np.array([1.10, 1.15, 1.18, 1.21, 1.24, 1.30, 1.40])
    triplet, singlet = run_curves(distances, basis, xc)
    r_e, _ = item_equilibrium(distances, triplet)
    plot_curves(distances, triplet, singlet, r_e)
    gap = run_vertical_gap(1.2075, basis, xc)
    print("PHYSVEC_RESULT " + json.dumps({"name": "triplet_re", "value": r_e}))
    print("PHYSVEC_RESULT " + json.dumps({"name": "gap_ev", "value": gap}))


if __name__ == "__main__":
    main()

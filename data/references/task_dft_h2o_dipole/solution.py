"""Reference: dipole moment of water with Hartree-Fock and B3LYP (PySCF) as the basis grows, against the Stark
measurement of Clough, Beers, Klein & Rothman, J. Chem. Phys. 59, 2254 (1973) (mu = 1.8546 D).

Geometry: experimental equilibrium structure r(OH) = 0.9572 Å, angle HOH = 104.52°, molecule in the xz plane with
the C2 axis along z (O at the origin, hydrogens at positive z).
"""
import json

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import physvec_runtime as pv
from pyscf import dft, gto, scf

EXPERIMENTAL_DIPOLE_DEBYE = 1.8546


def site_water(r_oh_angstrom, angle_deg, basis):
    half = np.radians(angle_deg) / 2
    x, z = r_oh_angstrom * np.sin(half), r_oh_angstrom * np.cos(half)
    return gto.M(atom=[["O", (0.0, 0.0, 0.0)], ["H", (x, 0.0, z)], ["H", (-x, 0.0, z)]], unit="Angstrom",
                 basis=basis, charge=0, spin=0, verbose=0)


def effector_rhf(mol, checkpoint=None):
    """With a checkpoint name, PySCF's chkfile (rewritten every SCF cycle) lives in the run's checkpoint dir
    and a retried run restarts from its orbitals; a converged SCF converges again in a cycle or two."""
    mf = scf.RHF(mol)
    pv.use_chkfile(mf, checkpoint)
    return mf.run(conv_tol=1e-10)


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


def observable_dipole_debye(mf):
    return np.asarray(mf.dip_moment(unit="Debye", verbose=0))


def observable_electron_count(mf):
    """Electrons from the density integrated on the SCF's own DFT grid."""
    ao = dft.numint.eval_ao(mf.mol, mf.grids.coords)
    rho = dft.numint.eval_rho(mf.mol, ao, mf.make_rdm1())
    return float(mf.grids.weights @ rho)


def run_dipole_vs_basis(bases, r_oh, angle, xc, grid_level):
    mu_hf, mu_dft, energies = [], [], []
    for basis in bases:
        mol = site_water(r_oh, angle, basis)
        geometry = f"H2O_r{r_oh}_a{angle}_{basis}"
        mu_hf.append(float(np.linalg.norm(observable_dipole_debye(effector_rhf(mol, checkpoint=f"rhf_{geometry}.chk")))))
        ks = effector_rks(mol, xc, grid_level, checkpoint=f"rks_{geometry}_{xc}_grid{grid_level}.chk")
        mu_dft.append(float(np.linalg.norm(observable_dipole_debye(ks))))
        energies.append(float(ks.e_tot))
    return np.array(mu_hf), np.array(mu_dft), np.array(energies)


def plot_dipoles(bases, mu_hf, mu_dft, filename="figure.png"):
    fig, ax = plt.subplots(figsize=(5.2, 3.8))
    x = np.arange(len(bases))
    ax.plot(x, mu_hf, "s-", label="Hartree-Fock")
    ax.plot(x, mu_dft, "o-", label="B3LYP")
    ax.axhline(EXPERIMENTAL_DIPOLE_DEBYE, color="k", ls="--", lw=0.8, label="experiment (Stark)")
    ax.set_xticks(x, bases)
    ax.set_ylabel(r"$|\mu|$ (Debye)")
    ax.set_title("H$_2$O at the experimental geometry")
    ax.legend()
    fig.tight_layout()
    fig.savefig(filename, dpi=120)
    plt.close(fig)


def main():
    r_oh, angle, xc, grid_level = 0.9572, 104.52, "b3lyp", 3
    bases = ["cc-pvdz", "aug-cc-pvdz", "aug-cc-pvtz"]
    mu_hf, mu_dft, energies = run_dipole_vs_basis(bases, r_oh, angle, xc, grid_level)
    plot_dipoles(bases, mu_hf, mu_dft)
    print("PHYSVEC_RESULT " + json.dumps({"name": "dipole_b3lyp", "value": float(mu_dft[-1])}))
    print("PHYSVEC_RESULT " + json.dumps({"name": "dipole_hf", "value": float(mu_hf[-1])}))
    print("PHYSVEC_RESULT " + json.dumps({"name": "energy_b3lyp", "value": float(energies[-1])}))


if __name__ == "__main__":
    main()

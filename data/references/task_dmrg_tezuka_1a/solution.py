"""Tezuka & Ueda, PRL 100, 110403 (2008), Fig. 1a right (scaled): density profiles of a balanced
attractive Hubbard chain in a harmonic trap, interacting (U<0) and non-interacting (U=0), by DMRG.

H = -t sum_{i,s} (c+_{i,s} c_{i+1,s} + h.c.) + U sum_i n_{i,up} n_{i,dn} + V sum_i (i - i_c)^2 n_i,
sites i = 0..L-1, trap centre i_c = (L-1)/2, V = 4A/L^2 (A = trap energy at the chain ends).
"""
import json

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import physvec_runtime as pv
from tenpy.algorithms import dmrg
from tenpy.models.lattice import Chain
from tenpy.models.model import CouplingModel, MPOModel
from tenpy.networks.mps import MPS
from tenpy.networks.site import SpinHalfFermionSite


def site_spinhalf_fermion():
    """Spin-1/2 fermion site conserving N_up + N_down and 2*Sz, i.e. both particle numbers."""
    return SpinHalfFermionSite(cons_N="N", cons_Sz="Sz")


def lattice_open_chain(L, site):
    return Chain(L, site, bc="open", bc_MPS="finite")


def hamiltonian_trapped_hubbard(lattice, t, U, V):
    L = lattice.N_sites
    centre = (L - 1) / 2
    model = CouplingModel(lattice)
    model.add_coupling(-t, 0, "Cdu", 0, "Cu", 1, plus_hc=True)
    model.add_coupling(-t, 0, "Cdd", 0, "Cd", 1, plus_hc=True)
    model.add_onsite(U, 0, "NuNd")
    model.add_onsite(V * (np.arange(L) - centre) ** 2, 0, "Ntot")
    return MPOModel(lattice, model.calc_H_MPO())


def initialstate_trap_centre_filling(lattice, N_up, N_down):
    """Product state with the up and down atoms on the sites closest to the trap centre."""
    L = lattice.N_sites
    order = sorted(range(L), key=lambda i: (abs(i - (L - 1) / 2), i))
    up, down = set(order[:N_up]), set(order[:N_down])
    labels = [("full" if i in down else "up") if i in up else ("down" if i in down else "empty") for i in range(L)]
    return MPS.from_product_state(lattice.mps_sites(), labels, bc=lattice.bc_MPS)


def effector_dmrg_ground_state(model, psi, chi_max, max_sweeps, checkpoint=None):
    """Finite two-site DMRG; for L=2 a two-site sweep is impossible, so single-site with a mixer.
    With a checkpoint name, the engine's resume data (MPS, environments, sweep count) and its sweep
    statistics are saved after every sweep (TeNPy HDF5 through physvec_runtime); a run that finds them (a
    retried run after a crash) continues from there, and a finished one returns its saved result."""
    options = {
        "mixer": psi.L <= 2,
        "max_sweeps": max_sweeps,
        "min_sweeps": min(2, max_sweeps),
        "max_E_err": 1e-9,
        "max_trunc_err": 1.0,  # report, do not abort, when a small chi truncates hard
        "trunc_params": {"chi_max": chi_max, "svd_min": 1e-10},
    }
    engine_class = dmrg.TwoSiteDMRGEngine if psi.L > 2 else dmrg.SingleSiteDMRGEngine
    return pv.checkpointed_dmrg(engine_class, psi, model, options, checkpoint)


def observable_spin_densities(psi):
    return np.real(psi.expectation_value("Nu")), np.real(psi.expectation_value("Nd"))


def run_density_profile(L, N_up, N_down, t, U, A, chi_max, max_sweeps):
    V = 4 * A / L**2
    site = site_spinhalf_fermion()
    lattice = lattice_open_chain(L, site)
    model = hamiltonian_trapped_hubbard(lattice, t, U, V)
    psi0 = initialstate_trap_centre_filling(lattice, N_up, N_down)
    energy, psi = effector_dmrg_ground_state(model, psi0, chi_max, max_sweeps,
                                             checkpoint=f"dmrg_L{L}_N{N_up}-{N_down}_t{t}_U{U}_A{A}_chi{chi_max}_sweeps{max_sweeps}.h5")
    n_up, n_down = observable_spin_densities(psi)
    return {"energy": energy, "n_up": n_up, "n_down": n_down}


def item_rescaled_profiles(L, interacting, free):
    """Both profiles on the paper's axes: x = (i - i_c) 2/L and densities n_i L/2."""
    x = (np.arange(L) - (L - 1) / 2) * 2 / L
    scale = L / 2
    return {
        "x": x,
        "n_up": np.asarray(interacting["n_up"]) * scale,
        "n_down": np.asarray(interacting["n_down"]) * scale,
        "n_diff": (np.asarray(interacting["n_up"]) - np.asarray(interacting["n_down"])) * scale,
        "n_free_up": np.asarray(free["n_up"]) * scale,
        "energy": interacting["energy"],
        "energy_free": free["energy"],
    }


def plot_density_profiles(profiles, title, path):
    fig, ax = plt.subplots(figsize=(5, 3.6))
    ax.plot(profiles["x"], profiles["n_up"], "o-", label=r"$n_\uparrow$")
    ax.plot(profiles["x"], profiles["n_down"], "s--", label=r"$n_\downarrow$")
    ax.plot(profiles["x"], profiles["n_diff"], "^-", label=r"$n_\uparrow-n_\downarrow$")
    ax.plot(profiles["x"], profiles["n_free_up"], "k:", label=r"$n_\uparrow$ (U=0)")
    ax.set_xlabel(r"$(i-i_c)\,2/L$")
    ax.set_ylabel(r"$n_i\,L/2$")
    ax.set_title(title)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def main():
    # Scaled from the paper's L=200, (N_up, N_down)=(20, 20), U=-4t, A=0.16 (see the task's "scaled").
    L, N_up, N_down = 12, 3, 3
    t, U, A = 1.0, -4.0, 1.0
    chi_max, max_sweeps = 32, 6
    interacting = run_density_profile(L, N_up, N_down, t, U, A, chi_max, max_sweeps)
    free = run_density_profile(L, N_up, N_down, t, 0.0, A, chi_max, max_sweeps)
    prof = item_rescaled_profiles(L, interacting, free)
    plot_density_profiles(prof, f"L={L}, ({N_up},{N_down}), U={U}, A={A}", "figure.png")
    print("PHYSVEC_RESULT " + json.dumps({"name": "energy_free", "value": prof["energy_free"]}))
    for key in ("n_up", "n_down", "n_diff", "n_free_up"):
        print("PHYSVEC_RESULT " + json.dumps({"name": key, "value": [float(v) for v in prof[key]]}))
    print("PHYSVEC_RESULT " + json.dumps({"name": "energy", "value": prof["energy"]}))


if __name__ == "__main__":
    main()

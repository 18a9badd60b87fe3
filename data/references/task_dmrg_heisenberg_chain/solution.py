"""White, PRL 69, 2863 (1992) (scaled): ground-state energies of open spin-1/2 Heisenberg chains by
finite DMRG, and their approach to the Bethe-ansatz energy per site e_inf = 1/4 - ln 2.

H = J sum_i S_i . S_{i+1}   (S = sigma/2), open chain of L sites, total Sz = 0 sector.
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
from tenpy.networks.site import SpinHalfSite

BETHE_ENERGY_PER_SITE = 0.25 - np.log(2.0)


def site_spin_half():
    return SpinHalfSite(conserve="Sz")


def lattice_open_chain(L, site):
    return Chain(L, site, bc="open", bc_MPS="finite")


def hamiltonian_heisenberg(lattice, J):
    """J (Sz Sz + (S+ S- + S- S+)/2) on every nearest-neighbour bond, with spin operators S = sigma/2."""
    model = CouplingModel(lattice)
    model.add_coupling(J, 0, "Sz", 0, "Sz", 1)
    model.add_coupling(0.5 * J, 0, "Sp", 0, "Sm", 1, plus_hc=True)
    return MPOModel(lattice, model.calc_H_MPO())


def initialstate_neel(lattice):
    labels = ["up" if i % 2 == 0 else "down" for i in range(lattice.N_sites)]
    return MPS.from_product_state(lattice.mps_sites(), labels, bc=lattice.bc_MPS)


def effector_dmrg_ground_state(model, psi, chi_max, max_sweeps, checkpoint=None):
    """Finite DMRG. With a checkpoint name, the engine's resume data (MPS, environments, sweep count) is
    saved after every sweep and a run that finds it (a retried run after a crash) continues from there."""
    options = {
        "mixer": psi.L <= 2,
        "max_sweeps": max_sweeps,
        "min_sweeps": min(2, max_sweeps),
        "max_E_err": 1e-10,
        "max_trunc_err": 1.0,
        "trunc_params": {"chi_max": chi_max, "svd_min": 1e-10},
    }
    engine_class = dmrg.TwoSiteDMRGEngine if psi.L > 2 else dmrg.SingleSiteDMRGEngine
    return pv.checkpointed_dmrg(engine_class, psi, model, options, checkpoint)


def observable_spin_correlations(psi, i0):
    """(<Sz_i0 Sz_j>, <Sx_i0 Sx_j>) for j = i0+1 .. L-1; Sx Sx = (S+S- + S-S+)/4."""
    others = list(range(i0 + 1, psi.L))
    zz = np.real(psi.correlation_function("Sz", "Sz", sites1=[i0], sites2=others)[0])
    pm = np.real(psi.correlation_function("Sp", "Sm", sites1=[i0], sites2=others)[0])
    return zz, 0.5 * pm


def observable_total_sz(psi):
    return float(np.sum(psi.expectation_value("Sz")))


def run_chain_ground_state(L, J, chi_max, max_sweeps):
    site = site_spin_half()
    lattice = lattice_open_chain(L, site)
    model = hamiltonian_heisenberg(lattice, J)
    psi0 = initialstate_neel(lattice)
    energy, psi = effector_dmrg_ground_state(model, psi0, chi_max, max_sweeps, checkpoint=f"dmrg_L{L}_J{J}_chi{chi_max}_sweeps{max_sweeps}.h5")
    return energy, psi


def item_energy_per_site_series(lengths, J, chi_max, max_sweeps):
    energies = [run_chain_ground_state(L, J, chi_max, max_sweeps)[0] for L in lengths]
    # E(L) = e_inf L + e_boundary + O(1/L): the difference of the two longest chains removes the boundary term.
    e_bulk = (energies[-1] - energies[-2]) / (lengths[-1] - lengths[-2])
    return {"L": list(lengths), "E": energies, "E_per_site": [e / L for e, L in zip(energies, lengths)], "e_bulk": e_bulk}


def plot_energy_per_site(series, path):
    fig, ax = plt.subplots(figsize=(5, 3.6))
    inv_L = 1.0 / np.asarray(series["L"], dtype=float)
    ax.plot(inv_L, series["E_per_site"], "o-", label="DMRG, open chain: E(L)/L")
    ax.axhline(series["e_bulk"], color="C1", ls="--", label="DMRG bulk: [E(L2)-E(L1)]/(L2-L1)")
    ax.axhline(BETHE_ENERGY_PER_SITE, color="k", ls=":", label=r"Bethe ansatz $1/4-\ln 2$")
    ax.set_xlabel("1/L")
    ax.set_ylabel("energy per site / J")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def main():
    lengths, J = [8, 16, 24, 32], 1.0
    chi_max, max_sweeps = 48, 6
    series = item_energy_per_site_series(lengths, J, chi_max, max_sweeps)
    plot_energy_per_site(series, "figure.png")
    print("PHYSVEC_RESULT " + json.dumps({"name": "E(L)", "value": series["E"]}))
    print("PHYSVEC_RESULT " + json.dumps({"name": "e_bulk", "value": series["e_bulk"]}))
    print("PHYSVEC_RESULT " + json.dumps({"name": "energy", "value": series["E"][-1]}))


if __name__ == "__main__":
    main()

"""Carleo & Troyer, Science 355, 602 (2017), Fig. 2 (2D antiferromagnetic Heisenberg panel, scaled): RBM
ground state of the square-lattice Heisenberg model by VMC + stochastic reconfiguration, against exact
diagonalisation.

H = J sum_<ij> (sx_i sx_j + sy_i sy_j + sz_i sz_j)  (Pauli matrices), periodic Lx x Ly square lattice,
sampled in the sector sum_i sz_i = 0 with spin-exchange moves; the Marshall sign rule is applied to H so
that a real, positive RBM can represent the ground state.
"""
import json

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import netket as nk
import numpy as np
import physvec_runtime as pv


def lattice_square(Lx, Ly, pbc):
    return nk.graph.Grid([Lx, Ly], pbc=pbc)


def site_spin_half_zero_magnetization(graph):
    return nk.hilbert.Spin(s=0.5, N=graph.n_nodes, total_sz=0)


def hamiltonian_heisenberg_marshall(hilbert, graph, J):
    """NetKet's Heisenberg operator (Pauli matrices) with the Marshall sign rotation on the bipartite lattice."""
    return nk.operator.Heisenberg(hilbert, graph, J=J, sign_rule=True)


def initialstate_rbm_exchange(hilbert, graph, alpha, n_samples, seed):
    model = nk.models.RBM(alpha=alpha, param_dtype=float)
    sampler = nk.sampler.MetropolisExchange(hilbert, graph=graph, n_chains=16)
    return nk.vqs.MCState(sampler, model, n_samples=n_samples, n_discard_per_chain=8, seed=seed, sampler_seed=seed + 1)


def effector_vmc_sr(hamiltonian, vstate, n_iter, learning_rate, diag_shift, checkpoint=None, every=10):
    """VMC with SR. With a checkpoint name, the optimisation runs in blocks of `every` steps and after each
    block the variational state (parameters and sampler state: Markov chains and RNG key), the optimizer
    state, the step count and the energy history are saved (flax serialization through physvec_runtime);
    a run that finds them (a retried run after a crash) continues from there. NetKet keeps the optimizer
    and sampler state between runs, so the blocks are the same chain of updates as one run."""
    driver = nk.driver.VMC(
        hamiltonian,
        nk.optimizer.Sgd(learning_rate=learning_rate),
        variational_state=vstate,
        preconditioner=nk.optimizer.SR(diag_shift=diag_shift),
    )
    history = pv.checkpointed_vmc(driver, n_iter, checkpoint, every)
    history = np.asarray(history, dtype=float)
    # The reported energy (and every later observable) from four times the optimisation's samples: the
    # statistical error of the last iterate would otherwise be comparable to the convergence criterion.
    vstate.n_samples = 4 * vstate.n_samples
    final = vstate.expect(hamiltonian)
    return float(final.mean.real), float(final.error_of_mean), history


def effector_exact_ground_energy(hamiltonian):
    return float(nk.exact.lanczos_ed(hamiltonian, k=1)[0])


def observable_bond_zz_by_direction(hilbert, graph, vstate):
    """Mean <sz_i sz_j> over horizontal and over vertical nearest-neighbour bonds (equal by C4 symmetry)."""
    pos = np.asarray(graph.positions)
    horizontal, vertical = [], []
    for i, j in graph.edges():
        d = np.abs(pos[j] - pos[i])
        (horizontal if d[1] < 1e-9 else vertical).append((i, j))
    means = []
    for bonds in (horizontal, vertical):
        op = sum(nk.operator.spin.sigmaz(hilbert, i) @ nk.operator.spin.sigmaz(hilbert, j) for i, j in bonds) * (1.0 / len(bonds))
        means.append(float(vstate.expect(op).mean.real))
    return means


def run_heisenberg_rbm(Lx, Ly, pbc, J, alpha, n_iter, n_samples, seed):
    graph = lattice_square(Lx, Ly, pbc)
    hilbert = site_spin_half_zero_magnetization(graph)
    H = hamiltonian_heisenberg_marshall(hilbert, graph, J)
    vstate = initialstate_rbm_exchange(hilbert, graph, alpha, n_samples, seed)
    energy, error, history = effector_vmc_sr(H, vstate, n_iter, learning_rate=0.02, diag_shift=0.01,
                                             checkpoint=f"vmc_{Lx}x{Ly}_pbc{pbc}_J{J}_alpha{alpha}_iter{n_iter}_ns{n_samples}_seed{seed}.msgpack")
    zz = observable_bond_zz_by_direction(hilbert, graph, vstate)
    return {"energy": energy, "error": error, "history": history, "zz": zz}


def run_heisenberg_exact(Lx, Ly, pbc, J):
    graph = lattice_square(Lx, Ly, pbc)
    hilbert = site_spin_half_zero_magnetization(graph)
    return effector_exact_ground_energy(hamiltonian_heisenberg_marshall(hilbert, graph, J))


def item_energy_comparison(L, J, alpha, n_iter, n_samples, seed):
    exact = run_heisenberg_exact(L, L, True, J)
    vmc = run_heisenberg_rbm(L, L, True, J, alpha, n_iter, n_samples, seed)
    return exact, vmc, abs((vmc["energy"] - exact) / exact)


def plot_optimisation(vmc, exact, L, path):
    fig, ax = plt.subplots(figsize=(5, 3.6))
    ax.plot(np.asarray(vmc["history"]) / L**2, label="RBM VMC")
    ax.axhline(exact / L**2, color="k", ls=":", label="exact diagonalisation")
    ax.set_xlabel("VMC iteration")
    ax.set_ylabel("energy per site")
    ax.set_title(f"{L}x{L} Heisenberg (periodic)")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def main():
    # Scaled from the article's 10x10 lattice to 4x4, where exact diagonalisation is available.
    L, J, alpha = 4, 1.0, 1
    n_iter, n_samples, seed = 150, 1024, 4321
    exact, vmc, rel = item_energy_comparison(L, J, alpha, n_iter, n_samples, seed)
    plot_optimisation(vmc, exact, L, "figure.png")
    print("PHYSVEC_RESULT " + json.dumps({"name": "exact", "value": exact}))
    print("PHYSVEC_RESULT " + json.dumps({"name": "relative_error", "value": rel}))
    print("PHYSVEC_RESULT " + json.dumps({"name": "energy", "value": vmc["energy"]}))


if __name__ == "__main__":
    main()

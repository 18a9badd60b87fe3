"""Carleo & Troyer, Science 355, 602 (2017), Fig. 2 (1D transverse-field Ising panel, scaled): RBM
neural-network quantum state optimised by variational Monte Carlo with stochastic reconfiguration,
compared with exact diagonalisation.

H = -J sum_i sz_i sz_{i+1} - h sum_i sx_i   (Pauli matrices, periodic chain of L spins).
"""
import json

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import netket as nk
import numpy as np
import physvec_runtime as pv


def lattice_periodic_chain(L):
    return nk.graph.Chain(L, pbc=True)


def site_spin_half_hilbert(graph):
    return nk.hilbert.Spin(s=0.5, N=graph.n_nodes)


def hamiltonian_transverse_field_ising(hilbert, graph, J, h):
    """Pauli operators sigma (eigenvalues +-1), as in the article."""
    H = nk.operator.LocalOperator(hilbert, dtype=float)
    for i in range(graph.n_nodes):
        H -= h * nk.operator.spin.sigmax(hilbert, i)
    for i, j in graph.edges():
        H -= J * nk.operator.spin.sigmaz(hilbert, i) @ nk.operator.spin.sigmaz(hilbert, j)
    return H


def initialstate_rbm(hilbert, alpha, n_samples, seed):
    """Real RBM (the TFIM ground state is positive) sampled with single-spin-flip Metropolis."""
    model = nk.models.RBM(alpha=alpha, param_dtype=float)
    sampler = nk.sampler.MetropolisLocal(hilbert, n_chains=16)
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
    final = vstate.expect(hamiltonian)
    return float(final.mean.real), float(final.error_of_mean), history


def effector_exact_ground_energy(hamiltonian):
    return float(nk.exact.lanczos_ed(hamiltonian, k=1)[0])


def observable_magnetization_z(hilbert, vstate):
    """<sum_i sz_i>/L, zero in the Z2-symmetric ground state of a finite chain."""
    m = sum(nk.operator.spin.sigmaz(hilbert, i) for i in range(hilbert.size)) * (1.0 / hilbert.size)
    return float(vstate.expect(m).mean.real)


def observable_transverse_magnetization_profile(hilbert, vstate):
    """<sx_i> on every site; uniform on the translation-invariant ring. Unlike <sum sz>, it does not need
    the sampler to tunnel between the two magnetised halves of the wave function."""
    return np.array([float(vstate.expect(nk.operator.spin.sigmax(hilbert, i)).mean.real) for i in range(hilbert.size)])


def run_tfim_rbm(L, J, h, alpha, n_iter, n_samples, seed):
    graph = lattice_periodic_chain(L)
    hilbert = site_spin_half_hilbert(graph)
    H = hamiltonian_transverse_field_ising(hilbert, graph, J, h)
    vstate = initialstate_rbm(hilbert, alpha, n_samples, seed)
    energy, error, history = effector_vmc_sr(H, vstate, n_iter, learning_rate=0.05, diag_shift=0.01,
                                             checkpoint=f"vmc_L{L}_J{J}_h{h}_alpha{alpha}_iter{n_iter}_ns{n_samples}_seed{seed}.msgpack")
    mz = observable_magnetization_z(hilbert, vstate)
    sx = observable_transverse_magnetization_profile(hilbert, vstate)
    return {"energy": energy, "error": error, "history": history, "mz": mz, "sx": sx}


def run_tfim_exact(L, J, h):
    graph = lattice_periodic_chain(L)
    hilbert = site_spin_half_hilbert(graph)
    H = hamiltonian_transverse_field_ising(hilbert, graph, J, h)
    return effector_exact_ground_energy(H)


def item_relative_errors(L, J, h, alphas, n_iter, n_samples, seed):
    exact = run_tfim_exact(L, J, h)
    runs = {a: run_tfim_rbm(L, J, h, a, n_iter, n_samples, seed) for a in alphas}
    rel = {a: abs((r["energy"] - exact) / exact) for a, r in runs.items()}
    return exact, runs, rel


def plot_relative_error(alphas, rel, runs, exact, path):
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(8, 3.4))
    ax1.semilogy(alphas, [max(rel[a], 1e-7) for a in alphas], "o-")
    ax1.set_xlabel(r"hidden-unit density $\alpha$")
    ax1.set_ylabel(r"$|E_{RBM}-E_{exact}|/|E_{exact}|$")
    for a in alphas:
        ax2.plot(runs[a]["history"], label=rf"$\alpha$={a}")
    ax2.axhline(exact, color="k", ls=":", label="exact")
    ax2.set_xlabel("VMC iteration")
    ax2.set_ylabel("energy")
    ax2.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def main():
    # Scaled from the article's L=80 chain at h=1 to L=10 (exact diagonalisation is cheap here).
    L, J, h = 10, 1.0, 1.0
    alphas, n_iter, n_samples, seed = [1, 2], 200, 1024, 1234
    exact, runs, rel = item_relative_errors(L, J, h, alphas, n_iter, n_samples, seed)
    plot_relative_error(alphas, rel, runs, exact, "figure.png")
    print("PHYSVEC_RESULT " + json.dumps({"name": "exact", "value": exact}))
    print("PHYSVEC_RESULT " + json.dumps({"name": "relative_error", "value": [rel[a] for a in alphas]}))
    print("PHYSVEC_RESULT " + json.dumps({"name": "energy", "value": runs[alphas[0]]["energy"]}))


if __name__ == "__main__":
    main()

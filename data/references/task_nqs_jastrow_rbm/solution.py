"""Carleo & Troyer, Science 355, 602 (2017), Fig. 2 (1D antiferromagnetic Heisenberg panel, scaled), with
the two textbook variational baselines the RBM improves on: a mean-field (product) state and a Jastrow
state. Expectation values are summed exactly over all 2^L configurations (no sampling noise).

H = J sum_i sigma_i . sigma_{i+1}  (Pauli matrices, periodic chain), with the Marshall sign rule, so that
real positive amplitudes suffice.
"""
import json

import flax.linen as nn
import jax.numpy as jnp
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import netket as nk
import numpy as np
import physvec_runtime as pv


class ProductState(nn.Module):
    """Mean-field ansatz: log psi(s) = sum_i a_i s_i, the most general positive product state of spins 1/2."""

    @nn.compact
    def __call__(self, x):
        a = self.param("a", nn.initializers.normal(0.01), (x.shape[-1],), float)
        return jnp.sum(a * x, axis=-1)


def lattice_chain(L, pbc):
    return nk.graph.Chain(L, pbc=pbc)


def site_spin_half_hilbert(graph):
    return nk.hilbert.Spin(s=0.5, N=graph.n_nodes)


def hamiltonian_heisenberg_marshall(hilbert, graph, J):
    return nk.operator.Heisenberg(hilbert, graph, J=J, sign_rule=True)


def initialstate_full_sum(hilbert, ansatz, alpha, seed):
    """Variational state summed exactly over the Hilbert space; ansatz in {"mean-field", "jastrow", "rbm"}."""
    if ansatz == "mean-field":
        model = ProductState()
    elif ansatz == "jastrow":
        model = nk.models.Jastrow(param_dtype=float)
    elif ansatz == "rbm":
        model = nk.models.RBM(alpha=alpha, param_dtype=float)
    else:
        raise ValueError(f"unknown ansatz {ansatz!r}")
    return nk.vqs.FullSumState(hilbert, model, seed=seed)


def effector_vmc_sr(hamiltonian, vstate, n_iter, learning_rate, diag_shift, checkpoint=None, every=10):
    """VMC with SR. With a checkpoint name, the optimisation runs in blocks of `every` steps and after each
    block the parameters (the state is summed exactly: no sampler), the optimizer state, the step count
    and the energy history are saved (flax serialization through physvec_runtime); a run that finds them
    (a retried run after a crash) continues from there. NetKet keeps the optimizer state between runs, so
    the blocks are the same chain of updates as one run."""
    driver = nk.driver.VMC(
        hamiltonian,
        nk.optimizer.Sgd(learning_rate=learning_rate),
        variational_state=vstate,
        preconditioner=nk.optimizer.SR(diag_shift=diag_shift),
    )
    history = pv.checkpointed_vmc(driver, n_iter, checkpoint, every)
    return float(vstate.expect(hamiltonian).mean.real), np.asarray(history, dtype=float)


def effector_exact_ground_energy(hamiltonian):
    return float(nk.exact.lanczos_ed(hamiltonian, k=1)[0])


def observable_total_sz(hilbert, vstate):
    op = sum(nk.operator.spin.sigmaz(hilbert, i) for i in range(hilbert.size))
    return float(vstate.expect(op).mean.real)


def run_ansatz(L, J, ansatz, alpha, n_iter, seed):
    graph = lattice_chain(L, True)
    hilbert = site_spin_half_hilbert(graph)
    H = hamiltonian_heisenberg_marshall(hilbert, graph, J)
    vstate = initialstate_full_sum(hilbert, ansatz, alpha, seed)
    energy, history = effector_vmc_sr(H, vstate, n_iter, learning_rate=0.05, diag_shift=0.01,
                                      checkpoint=f"vmc_L{L}_J{J}_{ansatz}_alpha{alpha}_iter{n_iter}_seed{seed}.msgpack")
    return {"energy": energy, "history": history, "sz": observable_total_sz(hilbert, vstate)}


def run_exact(L, pbc, J):
    graph = lattice_chain(L, pbc)
    hilbert = site_spin_half_hilbert(graph)
    return effector_exact_ground_energy(hamiltonian_heisenberg_marshall(hilbert, graph, J))


def item_ansatz_comparison(L, J, alpha, n_iter, seed, ansatze):
    exact = run_exact(L, True, J)
    runs = {name: run_ansatz(L, J, name, alpha, n_iter, seed) for name in ansatze}
    rel = {name: (r["energy"] - exact) / abs(exact) for name, r in runs.items()}
    return exact, runs, rel


def plot_ansatz_comparison(exact, runs, rel, path):
    names = list(runs)
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(8, 3.4))
    ax1.bar(names, [max(rel[n], 1e-8) for n in names])
    ax1.set_yscale("log")
    ax1.set_ylabel(r"$(E_{var}-E_{exact})/|E_{exact}|$")
    for n in names:
        ax2.plot(runs[n]["history"], label=n)
    ax2.axhline(exact, color="k", ls=":", label="exact")
    ax2.set_xlabel("SR iteration")
    ax2.set_ylabel("energy")
    ax2.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def main():
    # Scaled from the article's L=80 chain to L=12 (4096 configurations, summed exactly).
    L, J, alpha, n_iter, seed = 12, 1.0, 1, 150, 7
    exact, runs, rel = item_ansatz_comparison(L, J, alpha, n_iter, seed, ["mean-field", "jastrow", "rbm"])
    plot_ansatz_comparison(exact, runs, rel, "figure.png")
    print("PHYSVEC_RESULT " + json.dumps({"name": "exact", "value": exact}))
    print("PHYSVEC_RESULT " + json.dumps({"name": "energies", "value": [runs[n]["energy"] for n in runs]}))
    print("PHYSVEC_RESULT " + json.dumps({"name": "relative_errors", "value": [rel[n] for n in runs]}))
    print("PHYSVEC_RESULT " + json.dumps({"name": "energy", "value": runs["rbm"]["energy"]}))


if __name__ == "__main__":
    main()

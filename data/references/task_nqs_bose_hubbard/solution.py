"""McBrian, Carleo & Khatami, J. Phys.: Conf. Ser. 1290, 012005 (2019) (scaled): RBM ground states of the
one-dimensional Bose-Hubbard model in NetKet, compared with exact diagonalisation across the
superfluid-to-Mott crossover at unit filling.

H = -t sum_i (b+_i b_{i+1} + h.c.) + (U/2) sum_i n_i (n_i - 1)   on a ring of L sites with N = L bosons.
Expectation values are summed exactly over the fixed-N Fock space (no sampling noise).
"""
import json

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import netket as nk
import numpy as np
import physvec_runtime as pv


def lattice_ring(L):
    return nk.graph.Chain(L, pbc=True)


def lattice_open_chain(L):
    return nk.graph.Chain(L, pbc=False)


def site_boson_fock(graph, n_particles, n_max):
    return nk.hilbert.Fock(n_max=n_max, N=graph.n_nodes, n_particles=n_particles)


def hamiltonian_bose_hubbard(hilbert, graph, t, U):
    H = nk.operator.LocalOperator(hilbert, dtype=float)
    for i, j in graph.edges():
        hop = nk.operator.boson.create(hilbert, i) @ nk.operator.boson.destroy(hilbert, j)
        H -= t * (hop + hop.H)
    for i in range(graph.n_nodes):
        n = nk.operator.boson.number(hilbert, i)
        H += 0.5 * U * (n @ n - n)
    return H


def initialstate_rbm_full_sum(hilbert, alpha, seed):
    # The occupations enter one-hot encoded (one visible unit per site and occupation value). A real RBM on
    # the raw occupation numbers cannot suppress multiple occupancy (log cosh is convex in them) and stalls
    # at the uniform superposition over the Fock space.
    model = nk.models.RBMMultiVal(alpha=alpha, n_classes=hilbert.local_size, param_dtype=float)
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
    pv.checkpointed_vmc(driver, n_iter, checkpoint, every)
    return float(vstate.expect(hamiltonian).mean.real)


def effector_exact_ground_energy(hamiltonian):
    return float(nk.exact.lanczos_ed(hamiltonian, k=1)[0])


def observable_site_densities(hilbert, vstate):
    return np.array([float(vstate.expect(nk.operator.boson.number(hilbert, i)).mean.real) for i in range(hilbert.size)])


def run_bose_hubbard_rbm(L, N, n_max, t, U, alpha, n_iter, seed):
    graph = lattice_ring(L)
    hilbert = site_boson_fock(graph, N, n_max)
    H = hamiltonian_bose_hubbard(hilbert, graph, t, U)
    vstate = initialstate_rbm_full_sum(hilbert, alpha, seed)
    energy = effector_vmc_sr(H, vstate, n_iter, learning_rate=0.05, diag_shift=0.01,
                             checkpoint=f"vmc_L{L}_N{N}_nmax{n_max}_t{t}_U{U}_alpha{alpha}_iter{n_iter}_seed{seed}.msgpack")
    return {"energy": energy, "densities": observable_site_densities(hilbert, vstate)}


def run_bose_hubbard_exact(L, N, n_max, t, U, periodic=True):
    graph = lattice_ring(L) if periodic else lattice_open_chain(L)
    hilbert = site_boson_fock(graph, N, n_max)
    return effector_exact_ground_energy(hamiltonian_bose_hubbard(hilbert, graph, t, U))


def item_energy_vs_interaction(L, N, n_max, t, U_values, alpha, n_iter, seed):
    exact = [run_bose_hubbard_exact(L, N, n_max, t, U) for U in U_values]
    rbm = [run_bose_hubbard_rbm(L, N, n_max, t, U, alpha, n_iter, seed)["energy"] for U in U_values]
    return {"U": list(U_values), "exact": exact, "rbm": rbm}


def plot_energy_vs_interaction(data, L, path):
    fig, ax = plt.subplots(figsize=(5, 3.6))
    ax.plot(data["U"], np.asarray(data["exact"]) / L, "k-", label="exact diagonalisation")
    ax.plot(data["U"], np.asarray(data["rbm"]) / L, "o", label="RBM")
    ax.set_xlabel("U/t")
    ax.set_ylabel("energy per site / t")
    ax.set_title(f"Bose-Hubbard ring, L=N={L}")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def main():
    # Scaled: a ring of 6 sites at unit filling, no occupation cutoff below N (n_max = N).
    L = N = n_max = 6
    t, U_values, alpha, n_iter, seed = 1.0, [1.0, 2.0, 4.0, 8.0], 1, 200, 11
    data = item_energy_vs_interaction(L, N, n_max, t, U_values, alpha, n_iter, seed)
    plot_energy_vs_interaction(data, L, "figure.png")
    print("PHYSVEC_RESULT " + json.dumps({"name": "exact", "value": data["exact"]}))
    print("PHYSVEC_RESULT " + json.dumps({"name": "rbm", "value": data["rbm"]}))
    print("PHYSVEC_RESULT " + json.dumps({"name": "energy", "value": data["rbm"][2]}))


if __name__ == "__main__":
    main()

"""Reference: Trotterized (kicked) transverse-field Ising dynamics, averaged magnetisation versus the kick angle.

Kim et al., Nature 618, 500 (2023) ("Evidence for the utility of quantum computing before fault tolerance"):
one Trotter step = RX(theta_h) on every qubit followed by RZZ(theta_J) on every coupled pair, theta_J = -pi/2,
from |0...0>; here on a ring of 12 qubits instead of the 127-qubit heavy-hex processor.
"""
import json

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
from qiskit import QuantumCircuit
from qiskit.quantum_info import Statevector
from qiskit_aer.primitives import SamplerV2


def lattice_ring_edges(n_qubits):
    """Edges of a periodic ring (an open chain for n < 3)."""
    if n_qubits < 2:
        return []
    if n_qubits == 2:
        return [(0, 1)]
    return [(i, (i + 1) % n_qubits) for i in range(n_qubits)]


def hamiltonian_kicked_ising_step(n_qubits, edges, theta_h, theta_j=-np.pi / 2):
    """One Floquet (Trotter) step of H = -J sum Z_i Z_j + h sum X_i: RX(theta_h) kicks, then RZZ(theta_J) on every edge."""
    qc = QuantumCircuit(n_qubits)
    for q in range(n_qubits):
        qc.rx(theta_h, q)
    for i, j in edges:
        qc.rzz(theta_j, i, j)
    return qc


def initialstate_all_up(n_qubits):
    return QuantumCircuit(n_qubits)


def effector_floquet_circuit(initial, step, n_steps):
    qc = initial.copy()
    for _ in range(n_steps):
        qc.compose(step, inplace=True)
    return qc


def effector_sample(circuit, shots, seed):
    """Bitstring counts from Aer's SamplerV2 (all qubits measured)."""
    measured = circuit.measure_all(inplace=False)
    result = SamplerV2(default_shots=shots, seed=seed).run([measured]).result()
    return result[0].data.meas.get_counts()


def observable_site_magnetisations_from_counts(counts, n_qubits):
    """<Z_q> per qubit from bitstring counts (qiskit bitstrings: qubit 0 is the rightmost character)."""
    shots = sum(counts.values())
    mz = np.zeros(n_qubits)
    for bits, c in counts.items():
        for q in range(n_qubits):
            mz[q] += c * (1.0 if bits[n_qubits - 1 - q] == "0" else -1.0)
    return mz / shots


def observable_site_magnetisations_exact(circuit):
    """<Z_q> per qubit from the exact statevector."""
    probs = Statevector(circuit).probabilities()
    n = circuit.num_qubits
    idx = np.arange(len(probs))
    return np.array([np.sum(probs * (1 - 2 * ((idx >> q) & 1))) for q in range(n)])


def run_kicked_ising_circuit(n_qubits, theta_h, n_steps):
    edges = lattice_ring_edges(n_qubits)
    step = hamiltonian_kicked_ising_step(n_qubits, edges, theta_h)
    initial = initialstate_all_up(n_qubits)
    return effector_floquet_circuit(initial, step, n_steps)


def run_sampled_magnetisation(n_qubits, theta_h, n_steps, shots, seed=1234):
    circuit = run_kicked_ising_circuit(n_qubits, theta_h, n_steps)
    counts = effector_sample(circuit, shots, seed)
    return observable_site_magnetisations_from_counts(counts, n_qubits)


def run_exact_magnetisation(n_qubits, theta_h, n_steps):
    circuit = run_kicked_ising_circuit(n_qubits, theta_h, n_steps)
    return observable_site_magnetisations_exact(circuit)


def plot_magnetisation_sweep(thetas, mz_sampled, thetas_fine, mz_exact, n_steps, filename="figure.png"):
    fig, ax = plt.subplots(figsize=(5.2, 3.8))
    ax.plot(thetas_fine, mz_exact, "k-", label="exact (statevector)")
    ax.plot(thetas, mz_sampled, "o", label="sampled (Aer)")
    ax.set_xlabel(r"$\theta_h$")
    ax.set_ylabel(r"$M_z = \frac{1}{N}\sum_q \langle Z_q\rangle$")
    ax.set_title(f"kicked Ising ring, {n_steps} Trotter steps")
    ax.set_xticks([0, np.pi / 4, np.pi / 2], ["0", r"$\pi/4$", r"$\pi/2$"])
    ax.legend()
    fig.tight_layout()
    fig.savefig(filename, dpi=120)
    plt.close(fig)


def main():
    n_qubits, n_steps, shots = 12, 5, 16384
    thetas = np.linspace(0.0, np.pi / 2, 9)
    thetas_fine = np.linspace(0.0, np.pi / 2, 41)
    mz_sampled = [float(np.mean(run_sampled_magnetisation(n_qubits, th, n_steps, shots))) for th in thetas]
    mz_exact = [float(np.mean(run_exact_magnetisation(n_qubits, th, n_steps))) for th in thetas_fine]
    plot_magnetisation_sweep(thetas, mz_sampled, thetas_fine, mz_exact, n_steps)
    print("PHYSVEC_RESULT " + json.dumps({"name": "mz_sampled", "value": mz_sampled}))
    print("PHYSVEC_RESULT " + json.dumps({"name": "mz_theta_0p8", "value": float(np.mean(run_sampled_magnetisation(n_qubits, 0.8, n_steps, shots)))}))


if __name__ == "__main__":
    main()

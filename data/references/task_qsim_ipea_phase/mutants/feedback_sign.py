"""Reference: iterative phase estimation (IPEA) with a single ancilla qubit, two-qubit realisation.

Dobsicek, Johansson, Shumeiko & Wendin, Phys. Rev. A 76, 030306(R) (2007).
Qubit 0 is the ancilla, qubit 1 the system. The bits are measured from the least significant (k = m) to the most
significant (k = 1); the phase kick-back of the bits already known is removed by a feedback rotation on the ancilla.
"""
import json

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
from qiskit import ClassicalRegister, QuantumCircuit, QuantumRegister
from qiskit.circuit.library import UnitaryGate
from qiskit_aer.primitives import SamplerV2


def hamiltonian_phase_unitary(phi):
    """Single-qubit unitary diag(1, exp(2 pi i phi)): eigenvector |1> has eigenphase phi (in units of a full turn)."""
    return np.diag([1.0, np.exp(2j * np.pi * phi)])


def initialstate_eigenvector(qc, system_qubit):
    """Prepare the system qubit in the eigenvector |1> of the phase unitary."""
    qc.x(system_qubit)
    return qc


def effector_ipea_iteration_circuit(unitary, k, known_bits):
    """Circuit of iteration k (1-based; k = m first): ancilla |+>, controlled-U^(2^(k-1)), feedback phase
    omega_k = -2 pi * 0.0 x_{k+1} x_{k+2} ... (the bits already measured), Hadamard, measure the ancilla."""
    anc, sys_ = QuantumRegister(1, "anc"), QuantumRegister(1, "sys")
    creg = ClassicalRegister(1, "c")
    qc = QuantumCircuit(anc, sys_, creg)
    initialstate_eigenvector(qc, sys_[0])
    qc.h(anc[0])
    power = np.linalg.matrix_power(unitary, 2 ** (k - 1))
    # controlled-U^(2^(k-1)) on (anc, sys); qiskit's little-endian matrix index is 2 * sys + anc
    controlled = np.kron(np.eye(2), np.diag([1.0, 0.0])) + np.kron(power, np.diag([0.0, 1.0]))
    qc.append(UnitaryGate(controlled, label=f"c-U^{2 ** (k - 1)}"), [anc[0], sys_[0]])
    omega = 2 * np.pi * sum(bit / 2 ** (j + 2) for j, bit in enumerate(known_bits))  # sign of the correction flipped
    qc.p(omega, anc[0])
    qc.h(anc[0])
    qc.measure(anc[0], creg[0])
    return qc


def effector_sample_bit(circuit, shots, seed):
    """Majority vote of the ancilla outcome over `shots` samples of Aer's SamplerV2."""
    sampler = SamplerV2(default_shots=shots, seed=seed)
    counts = sampler.run([circuit]).result()[0].data.c.get_counts()
    return 1 if counts.get("1", 0) > counts.get("0", 0) else 0


def observable_phase_from_bits(bits_msb_first):
    """phi = 0.x1 x2 ... xm in binary."""
    return float(sum(bit / 2 ** (j + 1) for j, bit in enumerate(bits_msb_first)))


def run_ipea(phi, n_bits, shots=256, seed=11):
    unitary = hamiltonian_phase_unitary(phi)
    known = []  # x_{k+1}, x_{k+2}, ... (least significant last)
    for k in range(n_bits, 0, -1):
        circuit = effector_ipea_iteration_circuit(unitary, k, known)
        bit = effector_sample_bit(circuit, shots, seed + k)
        known = [bit] + known
    return observable_phase_from_bits(known)


def item_phase_sweep(phis, n_bits, shots=256):
    """The IPEA estimate for every phase of the sweep (one run_ipea per phase)."""
    return np.array([run_ipea(phi, n_bits, shots) for phi in phis])


def item_circular_error(estimate, phi):
    """Distance between two phases on the unit circle (in turns)."""
    d = abs(estimate - phi) % 1.0
    return float(min(d, 1.0 - d))


def plot_ipea(phis, estimates_by_bits, probe_phi, bits_range, probe_errors, filename="figure.png"):
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(9.5, 3.8))
    ax1.plot(phis, phis, "k-", lw=0.8, label="exact")
    for m, est in estimates_by_bits.items():
        ax1.step(phis, est, where="post", label=f"IPEA, m = {m} bits")
    ax1.set_xlabel(r"exact phase $\phi$")
    ax1.set_ylabel("estimated phase")
    ax1.legend()
    ax2.semilogy(bits_range, probe_errors, "o-", label=rf"$|\tilde\phi-\phi|$, $\phi$ = {probe_phi:.4f}")
    ax2.semilogy(bits_range, [2.0 ** -m for m in bits_range], "k--", label=r"$2^{-m}$")
    ax2.set_xlabel("number of bits m")
    ax2.legend()
    fig.tight_layout()
    fig.savefig(filename, dpi=120)
    plt.close(fig)


def main():
    phis = np.linspace(0.0, 1.0, 33, endpoint=False)
    estimates = {m: item_phase_sweep(phis, m) for m in (3, 5)}
    probe_phi, bits_range = 1 / 3, list(range(1, 11))
    probe = [run_ipea(probe_phi, m) for m in bits_range]
    errors = [item_circular_error(e, probe_phi) for e in probe]
    plot_ipea(phis, estimates, probe_phi, bits_range, errors)
    print("PHYSVEC_RESULT " + json.dumps({"name": "max_error_m5", "value": max(item_circular_error(e, p) for e, p in zip(estimates[5], phis))}))
    print("PHYSVEC_RESULT " + json.dumps({"name": "phi_estimate", "value": probe[-1]}))


if __name__ == "__main__":
    main()

# Smoke reproduction: the two-site spin-1/2 Heisenberg dimer, solved exactly, in the element-function
# structure. Ground-state energy J*(-3/4); writes figure.png and prints PHYSVEC_RESULT lines.
import numpy as np
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt


def site_spin_half():
    sx = np.array([[0, 1], [1, 0]]) / 2
    sy = np.array([[0, -1j], [1j, 0]]) / 2
    sz = np.array([[1, 0], [0, -1]]) / 2
    return sx, sy, sz


def hamiltonian_heisenberg_dimer(ops, J):
    return J * sum(np.kron(s, s) for s in ops)


def effector_exact_diagonalization(H):
    return np.linalg.eigvalsh(H)


def observable_ground_energy(energies):
    return float(energies[0])


def run_energy_vs_coupling(couplings):
    ops = site_spin_half()
    out = []
    for J in couplings:
        H = hamiltonian_heisenberg_dimer(ops, J)
        energies = effector_exact_diagonalization(H)
        out.append(observable_ground_energy(energies))
    return out


def plot_energy(couplings, energies):
    fig, ax = plt.subplots(figsize=(4, 3))
    ax.plot(couplings, energies, "o-", label="exact")
    ax.plot(couplings, -0.75 * np.asarray(couplings), "k--", label="-3J/4")
    ax.set_xlabel("J")
    ax.set_ylabel("E0")
    ax.legend()
    fig.tight_layout()
    fig.savefig("figure.png", dpi=100)


def main():
    couplings = [0.5, 1.0, 1.5, 2.0]
    energies = run_energy_vs_coupling(couplings)
    plot_energy(couplings, energies)
    print('PHYSVEC_RESULT {"name": "E0(J=1)", "value": %.12f}' % energies[1])


if __name__ == "__main__":
    main()

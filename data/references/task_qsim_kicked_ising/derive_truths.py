"""Numbers behind the task's truths (dense numpy, no qiskit): the kicked Ising circuit on a ring of n qubits.

theta_h = 0, pi: analytic (no rotation / full spin flip each step). Clifford point theta_h = pi/2 and the generic
point theta_h = 0.8 by brute force; single qubit: <Z> = cos(n theta_h).
Run: .venv/bin/python data/references/task_qsim_kicked_ising/derive_truths.py
"""
import numpy as np


def mz(n, theta_h, steps, theta_j=-np.pi / 2):
    dim = 2**n
    idx = np.arange(dim)
    z = np.array([1 - 2 * ((idx >> q) & 1) for q in range(n)])  # z[q, basis] = +-1
    edges = [(i, (i + 1) % n) for i in range(n)] if n > 2 else ([(0, 1)] if n == 2 else [])
    zz_phase = np.exp(-1j * theta_j / 2 * sum(z[i] * z[j] for i, j in edges)) if edges else np.ones(dim)
    rx = np.array([[np.cos(theta_h / 2), -1j * np.sin(theta_h / 2)], [-1j * np.sin(theta_h / 2), np.cos(theta_h / 2)]])
    psi = np.zeros(dim, complex)
    psi[0] = 1
    for _ in range(steps):
        psi = psi.reshape([2] * n)
        for q in range(n):
            axis = n - 1 - q  # qubit q is bit q of the index: axis n-1-q in C order
            psi = np.moveaxis(np.tensordot(rx, psi, axes=([1], [axis])), 0, axis)
        psi = psi.reshape(dim) * zz_phase
    p = np.abs(psi) ** 2
    return z @ p


print("theta_h = pi/2:", mz(12, np.pi / 2, 5).mean())
print("theta_h = 0.8 :", mz(12, 0.8, 5).mean(), " max site deviation", np.ptp(mz(12, 0.8, 5)))
print("single qubit  :", mz(1, 0.3, 3)[0], np.cos(0.9))
print("theta_h = pi  :", mz(12, np.pi, 5).mean())

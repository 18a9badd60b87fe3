"""Exact numbers behind the task's truths, with plain numpy/scipy (no qiskit): dense matrices of Pauli operators.

Run: .venv/bin/python data/references/task_qsim_trotter_domain_wall/derive_truths.py
"""
import numpy as np
from scipy.linalg import expm

X = np.array([[0, 1], [1, 0]], dtype=complex)
Y = np.array([[0, -1j], [1j, 0]])
Z = np.diag([1.0 + 0j, -1.0])


def op(o, i, n):
    """o on site i (0-based, site 0 = leftmost tensor factor here)."""
    m = np.eye(1)
    for k in range(n):
        m = np.kron(m, o if k == i else np.eye(2))
    return m


def magnetisations(n, J, delta, fields, n_down_left, t):
    h = sum(J * (op(X, i, n) @ op(X, i + 1, n) + op(Y, i, n) @ op(Y, i + 1, n) + delta * op(Z, i, n) @ op(Z, i + 1, n)) for i in range(n - 1))
    h = h + sum(f * op(Z, i, n) for i, f in enumerate(fields))
    index = int("".join("1" if i < n_down_left else "0" for i in range(n)), 2)
    psi = np.zeros(2**n, dtype=complex)
    psi[index] = 1
    psi = expm(-1j * t * h) @ psi
    return [float(np.real(psi.conj() @ op(Z, i, n) @ psi)) for i in range(n)]


if __name__ == "__main__":
    print("LC0  N=2, delta=0.5, <Z_2>(Jt=0.3):", magnetisations(2, 1, 0.5, [0, 0], 1, 0.3)[1], " analytic cos(1.2) =", np.cos(1.2))
    print("LC1  J=0, fields, t=2:", magnetisations(6, 0, 0, [0.3, -0.7, 1.1, 0.5, -0.2, 0.9], 3, 2.0))
    print("LC4  N=4 XX, <Z_3>(Jt=1):", magnetisations(4, 1, 0.0, [0] * 4, 2, 1.0)[2])
    print("LC5  N=4 Heisenberg delta=1, <Z_3>(Jt=1):", magnetisations(4, 1, 1.0, [0] * 4, 2, 1.0)[2])
    for t in (0, 1, 2):
        m = magnetisations(6, 1, 0.0, [0] * 6, 3, t)
        print(f"SR   N=6 XX, Jt={t}: <Z_4> = {m[3]:.4f}, <Z_6> = {m[5]:.4f}, sum = {sum(m):.2e}")

"""Small exact-diagonalisation helpers (numpy/scipy only, independent of TeNPy and NetKet).

Used by the tasks' derive_truths.py scripts to compute the numeric truths of limiting cases.
Fermion basis: one bitstring per spin species, operators ordered all-up then all-down, so a
hop of one species picks up only the Jordan-Wigner sign of that species' string.
"""
from __future__ import annotations

from itertools import combinations

import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg as sla


def species_basis(L: int, N: int) -> list[int]:
    return [sum(1 << i for i in occ) for occ in combinations(range(L), N)]


def hopping_matrix(L: int, N: int, bonds) -> sp.csr_matrix:
    """Sum over bonds (i, j, t) of -t (c†_i c_j + c†_j c_i) in the fixed-N basis of one species."""
    basis = species_basis(L, N)
    index = {s: k for k, s in enumerate(basis)}
    rows, cols, vals = [], [], []
    for k, s in enumerate(basis):
        for i, j, t in bonds:
            for a, b in ((i, j), (j, i)):  # c†_a c_b
                if (s >> b) & 1 and not (s >> a) & 1:
                    lo, hi = min(a, b), max(a, b)
                    between = bin(s & (((1 << hi) - 1) ^ ((1 << (lo + 1)) - 1))).count("1")
                    rows.append(index[s ^ (1 << b) ^ (1 << a)])
                    cols.append(k)
                    vals.append(-t * (-1) ** between)
    n = len(basis)
    return sp.csr_matrix((vals, (rows, cols)), shape=(n, n)), basis


def occupations(basis: list[int], L: int) -> np.ndarray:
    return np.array([[(s >> i) & 1 for i in range(L)] for s in basis], dtype=float)


def hubbard_ground(L: int, bonds, U: float, eps, Nu: int, Nd: int):
    """Ground state of H = sum_bonds -t c†c + U sum n↑n↓ + sum eps_i n_i; returns (E0, psi, occ_up, occ_dn)."""
    Tu, bu = hopping_matrix(L, Nu, bonds)
    Td, bd = hopping_matrix(L, Nd, bonds)
    ou, od = occupations(bu, L), occupations(bd, L)
    eps = np.asarray(eps, dtype=float) * np.ones(L)
    diag = (U * (ou[:, None, :] * od[None, :, :]).sum(-1)
            + (ou @ eps)[:, None] + (od @ eps)[None, :]).ravel()
    H = sp.kron(Tu, sp.identity(len(bd))) + sp.kron(sp.identity(len(bu)), Td) + sp.diags(diag)
    H = H.tocsr()
    if H.shape[0] <= 400:
        w, v = np.linalg.eigh(H.toarray())
        return w[0], v[:, 0], ou, od
    w, v = sla.eigsh(H, k=1, which="SA", tol=1e-12)
    return w[0], v[:, 0], ou, od


def hubbard_densities(psi, ou, od):
    p = (np.abs(psi) ** 2).reshape(ou.shape[0], od.shape[0])
    return p.sum(1) @ ou, p.sum(0) @ od


def hubbard_szsz(psi, ou, od, i: int, j: int) -> float:
    """<(n↑_i - n↓_i)(n↑_j - n↓_j)> (= 4 <Sz_i Sz_j>)."""
    p = (np.abs(psi) ** 2).reshape(ou.shape[0], od.shape[0])
    mi = ou[:, None, i] - od[None, :, i]
    mj = ou[:, None, j] - od[None, :, j]
    return float((p * mi * mj).sum())


def spin_ops(S: float):
    d = int(round(2 * S + 1))
    m = S - np.arange(d)
    sp_ = np.zeros((d, d))
    for k in range(1, d):
        sp_[k - 1, k] = np.sqrt(S * (S + 1) - m[k] * (m[k] + 1))
    return np.diag(m), sp_, sp_.T


def spin_hamiltonian(L: int, S: float, bonds, biquadratic: float = 0.0, field_x: float = 0.0, zz_only: float | None = None):
    """sum_bonds J (S_i·S_j) + beta (S_i·S_j)^2 on L spins S (bonds: (i, j, J)), as a sparse matrix."""
    sz, spl, smi = spin_ops(S)
    d = sz.shape[0]

    def op(o, i):
        return sp.kron(sp.kron(sp.identity(d ** i), sp.csr_matrix(o)), sp.identity(d ** (L - i - 1))).tocsr()

    Z = [op(sz, i) for i in range(L)]
    P = [op(spl, i) for i in range(L)]
    M = [op(smi, i) for i in range(L)]
    H = sp.csr_matrix((d ** L, d ** L))
    for i, j, J in bonds:
        ss = Z[i] @ Z[j] + 0.5 * (P[i] @ M[j] + M[i] @ P[j])
        H = H + J * ss
        if biquadratic:
            H = H + J * biquadratic * (ss @ ss)
    return H.tocsr(), Z


def lowest(H, k: int = 1):
    if H.shape[0] <= 600:
        return np.linalg.eigh(H.toarray())[0][:k]
    return np.sort(sla.eigsh(H, k=k, which="SA", tol=1e-12)[0])


def ground_vector(H):
    if H.shape[0] <= 600:
        w, v = np.linalg.eigh(H.toarray())
        return w[0], v[:, 0]
    w, v = sla.eigsh(H, k=1, which="SA", tol=1e-12)
    return w[0], v[:, 0]

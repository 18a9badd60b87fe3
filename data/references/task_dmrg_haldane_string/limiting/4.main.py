def main():
    L = 8
    energy, psi = run_spin_one_chain(L=L, J=1.0, beta=0.0, chi_max=64, max_sweeps=10)
    b = observable_bond_energies(psi, 1.0)
    print("PHYSVEC_RESULT " + json.dumps({"name": "max |b_i - b_(L-2-i)|", "value": float(np.max(np.abs(b - b[::-1])))}))

def main():
    # Variational principle: no ansatz may go below the exact ground state energy.
    exact = run_exact(12, True, 1.0)
    energies = [run_ansatz(12, 1.0, name, alpha=1, n_iter=150, seed=7)["energy"] for name in ("mean-field", "jastrow", "rbm")]
    print("PHYSVEC_RESULT " + json.dumps({"name": "max(0, E0 - E_var)", "value": max(0.0, max(exact - e for e in energies))}))

def main():
    # A product state cannot beat the classical Neel energy -J per bond (Pauli units): E_MF = -L.
    out = run_ansatz(12, 1.0, "mean-field", alpha=1, n_iter=100, seed=7)
    print("PHYSVEC_RESULT " + json.dumps({"name": "E_mean-field", "value": out["energy"]}))

def main():
    out = run_tfim_rbm(L=4, J=1.0, h=1.0, alpha=1, n_iter=150, n_samples=1024, seed=1234)
    print("PHYSVEC_RESULT " + json.dumps({"name": "energy", "value": out["energy"]}))

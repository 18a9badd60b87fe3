def main():
    import os

    n_iter = int(os.environ["PHYSVEC_PARAM"])
    out = run_tfim_rbm(L=10, J=1.0, h=1.0, alpha=1, n_iter=n_iter, n_samples=1024, seed=1234)
    print("PHYSVEC_RESULT " + json.dumps({"name": "energy", "value": out["energy"]}))

def main():
    import os

    n_iter = int(os.environ["PHYSVEC_PARAM"])
    out = run_heisenberg_rbm(4, 4, True, 1.0, alpha=1, n_iter=n_iter, n_samples=1024, seed=4321)
    print("PHYSVEC_RESULT " + json.dumps({"name": "energy", "value": out["energy"]}))

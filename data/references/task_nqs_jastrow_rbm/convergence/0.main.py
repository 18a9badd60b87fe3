def main():
    import os

    n_iter = int(os.environ["PHYSVEC_PARAM"])
    out = run_ansatz(12, 1.0, "rbm", alpha=1, n_iter=n_iter, seed=7)
    print("PHYSVEC_RESULT " + json.dumps({"name": "energy", "value": out["energy"]}))

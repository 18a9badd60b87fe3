def main():
    import os

    n_iter = int(os.environ["PHYSVEC_PARAM"])
    out = run_bose_hubbard_rbm(6, 6, 6, 1.0, 4.0, alpha=1, n_iter=n_iter, seed=11)
    print("PHYSVEC_RESULT " + json.dumps({"name": "energy", "value": out["energy"]}))

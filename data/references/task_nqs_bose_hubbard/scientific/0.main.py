def main():
    out = run_bose_hubbard_rbm(6, 6, 6, 1.0, 4.0, alpha=1, n_iter=200, seed=11)
    print("PHYSVEC_RESULT " + json.dumps({"name": "E_rbm(U=4)", "value": out["energy"]}))

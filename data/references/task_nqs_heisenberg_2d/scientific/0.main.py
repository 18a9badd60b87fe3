def main():
    out = run_heisenberg_rbm(4, 4, True, 1.0, alpha=1, n_iter=150, n_samples=1024, seed=4321)
    print("PHYSVEC_RESULT " + json.dumps({"name": "energy", "value": out["energy"]}))

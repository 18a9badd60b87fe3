def main():
    out = run_ansatz(12, 1.0, "rbm", alpha=1, n_iter=150, seed=7)
    print("PHYSVEC_RESULT " + json.dumps({"name": "<sum sz>", "value": out["sz"]}))

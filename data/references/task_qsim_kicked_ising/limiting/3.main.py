def main():
    mz = run_exact_magnetisation(1, 0.3, 3)
    print("PHYSVEC_RESULT " + json.dumps({"name": "mz", "value": float(mz[0])}))

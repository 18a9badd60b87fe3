def main():
    mz = run_exact_magnetisation(12, np.pi / 2, 5)
    print("PHYSVEC_RESULT " + json.dumps({"name": "mz", "value": float(np.mean(mz))}))

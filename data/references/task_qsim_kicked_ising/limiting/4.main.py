def main():
    mz = run_exact_magnetisation(12, 0.8, 5)
    print("PHYSVEC_RESULT " + json.dumps({"name": "max_site_deviation", "value": float(np.max(np.abs(mz - np.mean(mz))))}))

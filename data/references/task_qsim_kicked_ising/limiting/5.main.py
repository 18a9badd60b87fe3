def main():
    mz = run_sampled_magnetisation(12, 0.8, 5, shots=16384)
    print("PHYSVEC_RESULT " + json.dumps({"name": "mz", "value": float(np.mean(mz))}))

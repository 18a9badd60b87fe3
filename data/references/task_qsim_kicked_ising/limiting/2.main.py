def main():
    mz = run_sampled_magnetisation(12, np.pi, 5, shots=4096)
    print("PHYSVEC_RESULT " + json.dumps({"name": "mz", "value": float(np.mean(mz))}))

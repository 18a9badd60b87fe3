def main():
    import os
    shots = int(os.environ["PHYSVEC_PARAM"])
    mz = run_sampled_magnetisation(12, 0.8, 5, shots=shots)
    print("PHYSVEC_RESULT " + json.dumps({"name": "mz_theta_0p8", "value": float(np.mean(mz))}))

def main():
    # Translation symmetry of the ring: <sx_i> is the same on every site.
    out = run_tfim_rbm(L=10, J=1.0, h=1.0, alpha=1, n_iter=200, n_samples=1024, seed=1234)
    print("PHYSVEC_RESULT " + json.dumps({"name": "max_i |<sx_i> - mean|", "value": float(np.max(np.abs(out["sx"] - out["sx"].mean())))}))

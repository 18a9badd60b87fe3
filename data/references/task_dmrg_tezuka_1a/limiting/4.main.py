def main():
    out = run_density_profile(L=6, N_up=3, N_down=3, t=1.0, U=2.0, A=2.0, chi_max=32, max_sweeps=10)
    n_up, n_down = np.asarray(out["n_up"]), np.asarray(out["n_down"])
    asym = max(np.abs(n_up - n_up[::-1]).max(), np.abs(n_down - n_down[::-1]).max())
    print("PHYSVEC_RESULT " + json.dumps({"name": "max |n_i - n_(L-1-i)|", "value": float(asym)}))

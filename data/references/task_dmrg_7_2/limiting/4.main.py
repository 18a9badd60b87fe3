def main():
    # Symmetric trap: the spin-up density profile must be mirror-symmetric about the centre (the balanced case has n_down = n_up).
    out = run_density_profile(L=6, N_up=3, N_down=3, t=1.0, U=2.0, A=2.0, chi_max=32, max_sweeps=10)
    print("PHYSVEC_RESULT " + json.dumps({"name": "n_up(i)", "value": [float(x) for x in out["n_up"]]}))

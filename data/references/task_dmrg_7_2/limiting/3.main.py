def main():
    out = run_density_profile(L=6, N_up=3, N_down=3, t=1.0, U=2.0, A=2.0, chi_max=32, max_sweeps=10)
    totals = [float(sum(out["n_up"])), float(sum(out["n_down"]))]
    print("PHYSVEC_RESULT " + json.dumps({"name": "N_up, N_down", "value": totals}))

def main():
    out = run_density_profile(L=2, N_up=1, N_down=1, t=1.0, U=2.0, A=0.0, chi_max=16, max_sweeps=10)
    print("PHYSVEC_RESULT " + json.dumps({"name": "energy", "value": out["energy"]}))

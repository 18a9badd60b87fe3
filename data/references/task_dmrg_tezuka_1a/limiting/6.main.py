def main():
    out = run_density_profile(L=8, N_up=2, N_down=2, t=1.0, U=-4.0, A=1.0, chi_max=64, max_sweeps=10)
    print("PHYSVEC_RESULT " + json.dumps({"name": "energy", "value": out["energy"]}))

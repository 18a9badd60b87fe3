def main():
    import os

    max_sweeps = int(os.environ["PHYSVEC_PARAM"])
    out = run_density_profile(L=12, N_up=3, N_down=3, t=1.0, U=-4.0, A=1.0, chi_max=32, max_sweeps=max_sweeps)
    print("PHYSVEC_RESULT " + json.dumps({"name": "energy", "value": out["energy"]}))

def main():
    import os

    chi_max = int(os.environ["PHYSVEC_PARAM"])
    energy, psi, lattice = run_ladder_ground_state(L=6, t=1.0, t_perp=1.0, U=8.0, chi_max=chi_max, max_sweeps=6)
    print("PHYSVEC_RESULT " + json.dumps({"name": "energy", "value": energy}))

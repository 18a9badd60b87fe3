def main():
    energy, psi, lattice = run_ladder_ground_state(L=4, t=1.0, t_perp=1.0, U=8.0, chi_max=64, max_sweeps=10)
    print("PHYSVEC_RESULT " + json.dumps({"name": "energy", "value": energy}))

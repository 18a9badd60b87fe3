def main():
    energy, psi, lattice = run_ladder_ground_state(L=4, t=1.0, t_perp=1.0, U=8.0, chi_max=64, max_sweeps=10)
    r, c = observable_leg_spin_correlations(psi, lattice, 0, 0)
    print("PHYSVEC_RESULT " + json.dumps({"name": "C(r=1,2,3) from x0=0", "value": [float(v) for v in c]}))

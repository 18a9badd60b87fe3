def main():
    energy, psi, lattice = run_ladder_ground_state(L=6, t=1.0, t_perp=1.0, U=8.0, chi_max=64, max_sweeps=10)
    r, czz = observable_leg_spin_correlations(psi, lattice, 1, 0)
    r, cxx = observable_leg_transverse_correlations(psi, lattice, 1, 0)
    print("PHYSVEC_RESULT " + json.dumps({"name": "max_r |C_zz - C_xx|", "value": float(np.max(np.abs(czz - cxx)))}))

def main():
    # Half filling, strong repulsion: an open Heisenberg chain with J = 4t^2/U; print -E0/((L-1)J).
    L, t, U = 12, 1.0, 32.0
    out = run_density_profile(L=L, N_up=L // 2, N_down=L // 2, t=t, U=U, A=0.0, chi_max=64, max_sweeps=10)
    J = 4 * t**2 / U
    print("PHYSVEC_RESULT " + json.dumps({"name": "-E0/((L-1)J)", "value": -out["energy"] / ((L - 1) * J)}))

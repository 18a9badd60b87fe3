def main():
    # AKLT point beta = 1/3: every bond is in its lowest state, E0 = -(2/3) J (L-1) exactly.
    L = 16
    energy, psi = run_spin_one_chain(L=L, J=1.0, beta=1.0 / 3.0, chi_max=16, max_sweeps=10)
    print("PHYSVEC_RESULT " + json.dumps({"name": "E0/(L-1)", "value": energy / (L - 1)}))

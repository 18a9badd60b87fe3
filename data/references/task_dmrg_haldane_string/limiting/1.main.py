def main():
    energy, psi = run_spin_one_chain(L=8, J=1.0, beta=0.0, chi_max=64, max_sweeps=10)
    print("PHYSVEC_RESULT " + json.dumps({"name": "energy", "value": energy}))

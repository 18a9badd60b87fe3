def main():
    energy, psi = run_chain_ground_state(L=4, J=1.0, chi_max=16, max_sweeps=10)
    print("PHYSVEC_RESULT " + json.dumps({"name": "energy", "value": energy}))

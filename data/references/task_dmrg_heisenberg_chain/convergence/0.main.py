def main():
    import os

    chi_max = int(os.environ["PHYSVEC_PARAM"])
    energy, psi = run_chain_ground_state(L=32, J=1.0, chi_max=chi_max, max_sweeps=6)
    print("PHYSVEC_RESULT " + json.dumps({"name": "energy", "value": energy}))

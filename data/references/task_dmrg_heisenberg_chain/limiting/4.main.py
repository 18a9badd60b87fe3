def main():
    energy, psi = run_chain_ground_state(L=10, J=1.0, chi_max=64, max_sweeps=10)
    print("PHYSVEC_RESULT " + json.dumps({"name": "total Sz", "value": observable_total_sz(psi)}))

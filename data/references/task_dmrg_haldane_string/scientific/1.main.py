def main():
    e16, _ = run_spin_one_chain(L=16, J=1.0, beta=0.0, chi_max=48, max_sweeps=6)
    e32, _ = run_spin_one_chain(L=32, J=1.0, beta=0.0, chi_max=48, max_sweeps=6)
    print("PHYSVEC_RESULT " + json.dumps({"name": "bulk energy per site", "value": (e32 - e16) / 16}))

def main():
    estimate = run_ipea(phi=0.125, n_bits=3)
    print("PHYSVEC_RESULT " + json.dumps({"name": "phi_estimate", "value": estimate}))

def main():
    estimate = run_ipea(phi=0.0, n_bits=6)
    print("PHYSVEC_RESULT " + json.dumps({"name": "phi_estimate", "value": estimate}))

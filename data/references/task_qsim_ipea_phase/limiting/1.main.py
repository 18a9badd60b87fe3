def main():
    estimate = run_ipea(phi=0.5, n_bits=1)
    print("PHYSVEC_RESULT " + json.dumps({"name": "phi_estimate", "value": estimate}))

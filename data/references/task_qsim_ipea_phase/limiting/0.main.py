def main():
    estimate = run_ipea(phi=0.8125, n_bits=4)
    print("PHYSVEC_RESULT " + json.dumps({"name": "phi_estimate", "value": estimate}))

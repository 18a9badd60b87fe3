def main():
    estimate = run_ipea(phi=1/3, n_bits=8)
    print("PHYSVEC_RESULT " + json.dumps({"name": "phi_estimate", "value": estimate}))

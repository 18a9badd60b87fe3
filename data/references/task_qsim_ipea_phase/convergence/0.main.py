def main():
    import os
    n_bits = int(os.environ["PHYSVEC_PARAM"])
    print("PHYSVEC_RESULT " + json.dumps({"name": "phi_estimate", "value": run_ipea(phi=1 / 3, n_bits=n_bits)}))

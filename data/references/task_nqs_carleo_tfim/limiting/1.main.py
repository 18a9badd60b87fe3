def main():
    print("PHYSVEC_RESULT " + json.dumps({"name": "E0", "value": run_tfim_exact(L=10, J=1.0, h=1.0)}))

def main():
    print("PHYSVEC_RESULT " + json.dumps({"name": "E0", "value": run_bose_hubbard_exact(6, 6, 6, 1.0, 4.0)}))

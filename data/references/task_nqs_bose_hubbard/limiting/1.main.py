def main():
    # Two sites, two bosons, one bond: E0 = (U - sqrt(U^2 + 16 t^2))/2.
    print("PHYSVEC_RESULT " + json.dumps({"name": "E0", "value": run_bose_hubbard_exact(2, 2, 2, 1.0, 4.0, periodic=False)}))

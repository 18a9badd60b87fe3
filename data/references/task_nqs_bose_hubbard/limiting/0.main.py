def main():
    # U = 0: all N bosons condense in the k = 0 orbital of the ring, E0 = -2 t N.
    print("PHYSVEC_RESULT " + json.dumps({"name": "E0", "value": run_bose_hubbard_exact(6, 6, 6, 1.0, 0.0)}))

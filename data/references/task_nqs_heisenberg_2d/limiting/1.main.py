def main():
    # A 2x2 open plaquette is a ring of four bonds: E0 = -8 J in Pauli units.
    print("PHYSVEC_RESULT " + json.dumps({"name": "E0", "value": run_heisenberg_exact(2, 2, False, 1.0)}))

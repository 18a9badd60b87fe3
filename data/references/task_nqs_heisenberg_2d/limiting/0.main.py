def main():
    # Two spins on one bond (a 2x1 open grid): the singlet, E0 = -3 J in Pauli units.
    print("PHYSVEC_RESULT " + json.dumps({"name": "E0", "value": run_heisenberg_exact(2, 1, False, 1.0)}))

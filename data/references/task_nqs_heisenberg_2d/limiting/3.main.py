def main():
    # C4 symmetry of the periodic square lattice: horizontal and vertical bonds are equivalent.
    out = run_heisenberg_rbm(4, 4, True, 1.0, alpha=1, n_iter=150, n_samples=1024, seed=4321)
    print("PHYSVEC_RESULT " + json.dumps({"name": "|zz_horizontal - zz_vertical|", "value": abs(out["zz"][0] - out["zz"][1])}))

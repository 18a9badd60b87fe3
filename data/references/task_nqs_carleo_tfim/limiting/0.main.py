def main():
    # h -> 0: the classical ferromagnet, E0 = -J L on the ring (exact diagonalisation of the built H).
    print("PHYSVEC_RESULT " + json.dumps({"name": "E0", "value": run_tfim_exact(L=10, J=1.0, h=0.0)}))

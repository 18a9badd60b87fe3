def main():
    # h >> J: the paramagnet, E0 -> -h L - J^2 L / (4h) + ...; checked against the free-fermion value.
    print("PHYSVEC_RESULT " + json.dumps({"name": "E0", "value": run_tfim_exact(L=10, J=1.0, h=20.0)}))

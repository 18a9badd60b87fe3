def main():
    point = run_vqe_point(0.735, depth=1)
    zz = SparsePauliOp("ZZ")
    print("PHYSVEC_RESULT " + json.dumps({"name": "zz", "value": observable_expectation(point["ansatz"], point["params"], zz)}))

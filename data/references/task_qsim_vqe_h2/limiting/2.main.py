def main():
    point = run_vqe_point(0.735, depth=1)
    print("PHYSVEC_RESULT " + json.dumps({"name": "vqe_total_energy", "value": point["e_vqe"]}))

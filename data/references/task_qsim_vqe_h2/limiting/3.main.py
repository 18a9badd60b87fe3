def main():
    point = run_vqe_point(6.0, depth=1)
    print("PHYSVEC_RESULT " + json.dumps({"name": "vqe_total_energy_6A", "value": point["e_vqe"]}))

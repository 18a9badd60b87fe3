def main():
    import os
    depth = int(os.environ["PHYSVEC_PARAM"])
    point = run_vqe_point(0.735, depth)
    print("PHYSVEC_RESULT " + json.dumps({"name": "energy_0735", "value": point["e_vqe"]}))

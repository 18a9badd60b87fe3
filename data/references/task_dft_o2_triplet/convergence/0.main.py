def main():
    import os
    basis = {2: "cc-pvdz", 3: "cc-pvtz", 4: "cc-pvqz"}[int(os.environ["PHYSVEC_PARAM"])]
    print("PHYSVEC_RESULT " + json.dumps({"name": "gap_ev", "value": run_vertical_gap(1.2075, basis, "b3lyp")}))

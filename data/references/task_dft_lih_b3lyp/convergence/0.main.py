def main():
    import os
    level = int(os.environ["PHYSVEC_PARAM"])
    mf = effector_rks(site_lih(1.6, "cc-pvtz"), "b3lyp", level)
    print("PHYSVEC_RESULT " + json.dumps({"name": "energy_1p6", "value": float(mf.e_tot)}))

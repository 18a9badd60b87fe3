def main():
    mf = effector_uks(site_o2(1.2075, "cc-pvdz", 2), "b3lyp")
    print("PHYSVEC_RESULT " + json.dumps({"name": "spin_square", "value": observable_spin_square(mf)}))

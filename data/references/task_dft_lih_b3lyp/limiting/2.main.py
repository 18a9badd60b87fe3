def main():
    mf = effector_rks(site_lih(1.6, "cc-pvtz"), "b3lyp", 3)
    print("PHYSVEC_RESULT " + json.dumps({"name": "lih_electrons", "value": observable_density_integrals(mf)[0]}))

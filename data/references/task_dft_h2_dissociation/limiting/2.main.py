def main():
    rhf = effector_rhf(site_h2_molecule(1.4, "sto-3g"))
    print("PHYSVEC_RESULT " + json.dumps({"name": "fci_sto3g_1p4", "value": float(effector_full_ci(rhf))}))

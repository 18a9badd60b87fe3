def main():
    rhf = effector_rhf(site_h2_molecule(1.4, "cc-pvtz"))
    print("PHYSVEC_RESULT " + json.dumps({"name": "fci_energy_1p4", "value": float(effector_full_ci(rhf))}))

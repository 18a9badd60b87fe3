def main():
    import os
    cardinal = int(os.environ["PHYSVEC_PARAM"])
    basis = {2: "cc-pvdz", 3: "cc-pvtz", 4: "cc-pvqz", 5: "cc-pv5z"}[cardinal]
    rhf = effector_rhf(site_h2_molecule(1.4, basis))
    print("PHYSVEC_RESULT " + json.dumps({"name": "fci_energy_1p4", "value": float(effector_full_ci(rhf))}))

def main():
    mol = site_h2_molecule(1.4, "cc-pvtz")
    print("PHYSVEC_RESULT " + json.dumps({"name": "electron_count", "value": observable_electron_count(mol, effector_rhf(mol))}))

def main():
    mol = site_h2_molecule(10.0, "cc-pvtz")
    uhf = effector_uhf_broken_symmetry(mol, effector_rhf(mol))
    print("PHYSVEC_RESULT " + json.dumps({"name": "s2_10bohr", "value": observable_spin_square(uhf)}))

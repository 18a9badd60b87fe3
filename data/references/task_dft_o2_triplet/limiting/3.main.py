def main():
    mf = effector_uks(site_atom("O", 2, "cc-pvdz"), "b3lyp")
    print("PHYSVEC_RESULT " + json.dumps({"name": "o_atom_spin_square", "value": observable_spin_square(mf)}))

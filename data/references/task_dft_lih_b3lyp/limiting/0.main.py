def main():
    li = effector_uks(site_atom("Li", 1, "cc-pvtz"), "b3lyp", 3)
    print("PHYSVEC_RESULT " + json.dumps({"name": "li_spin_square", "value": observable_spin_square(li)}))

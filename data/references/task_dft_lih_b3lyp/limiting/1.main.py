def main():
    li = effector_uks(site_atom("Li", 1, "cc-pvtz"), "b3lyp", 3)
    n_total, n_spin = observable_density_integrals(li)
    print("PHYSVEC_RESULT " + json.dumps({"name": "li_electrons_and_unpaired", "value": [n_total, n_spin]}))

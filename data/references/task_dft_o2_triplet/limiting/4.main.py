def main():
    mf = effector_uhf(site_atom("H", 1, "cc-pvtz"))
    print("PHYSVEC_RESULT " + json.dumps({"name": "h_atom_uhf_energy", "value": float(mf.e_tot)}))

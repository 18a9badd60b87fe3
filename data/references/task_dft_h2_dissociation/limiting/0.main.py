def main():
    print("PHYSVEC_RESULT " + json.dumps({"name": "h_atom_energy", "value": run_atom_energy("cc-pvtz")}))

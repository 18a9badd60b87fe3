def main():
    mol = site_water(0.9572, 104.52, "sto-3g")
    print("PHYSVEC_RESULT " + json.dumps({"name": "nuclear_repulsion", "value": float(mol.energy_nuc())}))

def main():
    _, e_nuc = hamiltonian_h2_two_qubit(site_h2_molecule(0.735))
    print("PHYSVEC_RESULT " + json.dumps({"name": "nuclear_repulsion", "value": e_nuc}))

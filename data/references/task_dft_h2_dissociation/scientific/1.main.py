def main():
    distances = np.array([1.3, 1.35, 1.4, 1.45, 1.5])
    _, _, e_fci = run_dissociation_curve(distances, "cc-pvtz")
    r_e, e_min = item_equilibrium(distances, e_fci)
    e_atoms = 2 * run_atom_energy("cc-pvtz")
    print("PHYSVEC_RESULT " + json.dumps({"name": "re_and_de", "value": [r_e, (e_atoms - e_min) * HARTREE_TO_EV]}))

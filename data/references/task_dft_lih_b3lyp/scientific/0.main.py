def main():
    distances = np.array([1.5, 1.55, 1.6, 1.65, 1.7])
    energies = run_potential_curve(distances, "cc-pvtz", "b3lyp", 3)
    r_e, e_min = item_equilibrium(distances, energies)
    e_atoms = run_atom_energies("cc-pvtz", "b3lyp", 3)
    print("PHYSVEC_RESULT " + json.dumps({"name": "re_and_de", "value": [r_e, (e_atoms - e_min) * HARTREE_TO_EV]}))

def main():
    bond_lengths = np.array([0.6, 0.65, 0.7, 0.735, 0.77, 0.8, 0.85])
    e_vqe, _ = item_energy_curve(bond_lengths, depth=1)
    print("PHYSVEC_RESULT " + json.dumps({"name": "equilibrium", "value": list(item_equilibrium(bond_lengths, e_vqe))}))

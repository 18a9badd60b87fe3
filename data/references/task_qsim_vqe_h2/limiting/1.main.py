def main():
    hamiltonian, _ = hamiltonian_h2_two_qubit(site_h2_molecule(0.735))
    print("PHYSVEC_RESULT " + json.dumps({"name": "exact_electronic_energy", "value": observable_exact_ground_energy(hamiltonian)}))

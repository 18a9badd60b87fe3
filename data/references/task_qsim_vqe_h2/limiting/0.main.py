def main():
    hamiltonian, _ = hamiltonian_h2_two_qubit(site_h2_molecule(0.735))
    coeffs = {label: float(np.real(c)) for label, c in hamiltonian.simplify(atol=0).to_list()}
    print("PHYSVEC_RESULT " + json.dumps({"name": "pauli_coefficients", "value": [coeffs.get(k, 0.0) for k in ("II", "IZ", "ZI", "ZZ", "XX")]}))

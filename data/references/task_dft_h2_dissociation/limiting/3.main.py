def main():
    rhf = effector_rhf(site_h2_molecule(1.4, "cc-pvtz"))
    print("PHYSVEC_RESULT " + json.dumps({"name": "dipole_norm", "value": float(np.linalg.norm(observable_dipole_debye(rhf)))}))

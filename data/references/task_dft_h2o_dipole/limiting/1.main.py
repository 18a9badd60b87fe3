def main():
    mu = observable_dipole_debye(effector_rks(site_water(0.9572, 180.0, "aug-cc-pvdz"), "b3lyp", 3))
    print("PHYSVEC_RESULT " + json.dumps({"name": "dipole_linear", "value": float(np.linalg.norm(mu))}))

def main():
    mu = observable_dipole_debye(effector_rks(site_water(0.9572, 104.52, "aug-cc-pvdz"), "b3lyp", 3))
    print("PHYSVEC_RESULT " + json.dumps({"name": "perpendicular_dipole", "value": float(np.hypot(mu[0], mu[1]))}))

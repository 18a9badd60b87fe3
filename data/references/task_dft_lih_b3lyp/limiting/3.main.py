def main():
    mf = effector_rks(site_lih(1.6, "cc-pvtz"), "b3lyp", 3)
    mu = observable_dipole_debye(mf)
    print("PHYSVEC_RESULT " + json.dumps({"name": "perpendicular_dipole", "value": float(np.hypot(mu[0], mu[1]))}))

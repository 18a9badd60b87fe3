def main():
    ks = effector_rks(site_water(0.9572, 104.52, "aug-cc-pvtz"), "b3lyp", 3)
    print("PHYSVEC_RESULT " + json.dumps({"name": "dipole_b3lyp", "value": float(np.linalg.norm(observable_dipole_debye(ks)))}))

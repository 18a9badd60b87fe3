def main():
    import os
    basis = ["cc-pvdz", "aug-cc-pvdz", "aug-cc-pvtz", "aug-cc-pvqz"][int(os.environ["PHYSVEC_PARAM"])]
    ks = effector_rks(site_water(0.9572, 104.52, basis), "b3lyp", 3)
    print("PHYSVEC_RESULT " + json.dumps({"name": "dipole_b3lyp", "value": float(np.linalg.norm(observable_dipole_debye(ks)))}))

def main():
    ks = effector_rks(site_water(0.9572, 104.52, "aug-cc-pvdz"), "b3lyp", 3)
    print("PHYSVEC_RESULT " + json.dumps({"name": "electron_count", "value": observable_electron_count(ks)}))

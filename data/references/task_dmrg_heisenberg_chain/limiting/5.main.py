def main():
    series = item_energy_per_site_series([24, 32], J=1.0, chi_max=48, max_sweeps=8)
    print("PHYSVEC_RESULT " + json.dumps({"name": "e_bulk", "value": series["e_bulk"]}))

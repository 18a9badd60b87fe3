def main():
    series = item_energy_per_site_series([32, 64], J=1.0, chi_max=64, max_sweeps=8)
    print("PHYSVEC_RESULT " + json.dumps({"name": "e_bulk", "value": series["e_bulk"]}))

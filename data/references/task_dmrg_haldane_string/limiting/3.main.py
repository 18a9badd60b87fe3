def main():
    # AKLT point: the string order is exactly 4/9 between bulk sites.
    curves = item_bulk_correlations(L=16, J=1.0, beta=1.0 / 3.0, chi_max=16, max_sweeps=10)
    print("PHYSVEC_RESULT " + json.dumps({"name": "string order -O(4, 12)", "value": float(-curves["string"][-1])}))

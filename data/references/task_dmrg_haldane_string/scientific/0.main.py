def main():
    curves = item_bulk_correlations(L=32, J=1.0, beta=0.0, chi_max=48, max_sweeps=6)
    print("PHYSVEC_RESULT " + json.dumps({"name": "string order -O(8, 24)", "value": float(-curves["string"][-1])}))

def main():
    print("PHYSVEC_RESULT " + json.dumps({"name": "E0", "value": run_exact(12, True, 1.0)}))

def main():
    print("PHYSVEC_RESULT " + json.dumps({"name": "E0", "value": run_exact(2, False, 1.0)}))

def main():
    print("PHYSVEC_RESULT " + json.dumps({"name": "E0", "value": run_heisenberg_exact(4, 4, True, 1.0)}))

def main():
    m = run_trotter_at_time(n_sites=4, J=1.0, delta=1.0, fields=[0.0] * 4, n_down_left=2, t=1.0, n_steps=100)
    print("PHYSVEC_RESULT " + json.dumps({"name": "sz3", "value": float(m[2])}))

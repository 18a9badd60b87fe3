def main():
    import os
    n_steps = int(os.environ["PHYSVEC_PARAM"])
    m = run_trotter_at_time(n_sites=6, J=1.0, delta=0.0, fields=[0.0] * 6, n_down_left=3, t=2.0, n_steps=n_steps)
    print("PHYSVEC_RESULT " + json.dumps({"name": "sz4_t2", "value": float(m[3])}))

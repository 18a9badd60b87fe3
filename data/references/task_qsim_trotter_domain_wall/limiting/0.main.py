def main():
    # Two sites, one bond: XX, YY and ZZ on the same bond commute, so one Trotter step is exact.
    m = run_trotter_at_time(n_sites=2, J=1.0, delta=0.5, fields=[0.0, 0.0], n_down_left=1, t=0.3, n_steps=1)
    print("PHYSVEC_RESULT " + json.dumps({"name": "sz2", "value": float(m[1])}))

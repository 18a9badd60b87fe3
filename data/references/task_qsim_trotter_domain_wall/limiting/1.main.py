def main():
    # J = 0: only z fields, which commute with every sigma^z: the domain wall is frozen.
    fields = [0.3, -0.7, 1.1, 0.5, -0.2, 0.9]
    m = run_trotter_at_time(n_sites=6, J=0.0, delta=0.0, fields=fields, n_down_left=3, t=2.0, n_steps=1)
    print("PHYSVEC_RESULT " + json.dumps({"name": "sz_all", "value": [float(x) for x in m]}))

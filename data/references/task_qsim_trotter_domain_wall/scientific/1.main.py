def main():
    m = run_trotter_dynamics(6, 1.0, 0.0, [0.0] * 6, 3, np.array([0.0, 1.0, 2.0]), steps_per_unit_time=10)
    print("PHYSVEC_RESULT " + json.dumps({"name": "sz6_t012", "value": [float(x) for x in m[:, 5]]}))

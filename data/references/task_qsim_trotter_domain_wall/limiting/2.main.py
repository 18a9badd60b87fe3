def main():
    # U(1): the total magnetisation commutes with every term (and every Trotter factor), so it stays 0.
    fields = [0.3, -0.7, 1.1, 0.5, -0.2, 0.9]
    times = np.linspace(0.0, 3.0, 16)
    m = run_trotter_dynamics(6, 1.0, 0.5, fields, 3, times, steps_per_unit_time=10)
    print("PHYSVEC_RESULT " + json.dumps({"name": "max_abs_total_sz", "value": float(np.max(np.abs(m.sum(axis=1))))}))

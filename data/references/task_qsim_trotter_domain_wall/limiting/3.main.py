def main():
    # Reflection combined with a global spin flip maps the domain wall onto itself: m_i(t) = -m_{N+1-i}(t).
    times = np.linspace(0.0, 3.0, 16)
    m = run_trotter_dynamics(6, 1.0, 0.5, [0.0] * 6, 3, times, steps_per_unit_time=10)
    print("PHYSVEC_RESULT " + json.dumps({"name": "max_mirror_asymmetry", "value": float(np.max(np.abs(m + m[:, ::-1])))}))

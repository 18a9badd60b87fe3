def main():
    x = np.linspace(-1, 1, 4)
    profiles = {"x": x, "n_up": np.ones(4), "n_down": np.ones(4), "n_diff": np.zeros(4), "n_free_up": np.ones(4)}
    plot_density_profiles(profiles, "unit test", "figure.png")

def main():
    L = 4
    interacting = {"energy": -3.0, "n_up": np.full(L, 0.5), "n_down": np.full(L, 0.5)}
    free = {"energy": -2.0, "n_up": np.full(L, 0.5), "n_down": np.full(L, 0.5)}
    print(item_rescaled_profiles(L, interacting, free))

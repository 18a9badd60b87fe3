import netket as nk


def initialstate_verifier_rbm_state(hilbert, alpha=1, n_samples=512, graph=None, seed=0):
    """Stands in for an initialstate_ function: a Monte Carlo variational state with an RBM ansatz.

    Args:
        hilbert: a netket Hilbert space.
        alpha: hidden-unit density of the RBM (alpha * N hidden units).
        n_samples: Monte Carlo samples per step.
        graph: needed for a constrained Hilbert space (total_sz fixed): spins are then exchanged along its bonds.
        seed: seeds both the parameters and the sampler.
    Returns:
        A netket.vqs.MCState (real RBM parameters; MetropolisLocal, or MetropolisExchange when constrained).
    """
    if hilbert.constrained:
        if graph is None:
            raise ValueError("a constrained Hilbert space needs graph= for the exchange sampler")
        sampler = nk.sampler.MetropolisExchange(hilbert, graph=graph)
    else:
        sampler = nk.sampler.MetropolisLocal(hilbert)
    model = nk.models.RBM(alpha=alpha, param_dtype=float)
    return nk.vqs.MCState(sampler, model, n_samples=n_samples, seed=seed, sampler_seed=seed + 1)

import numpy as np


def observable_verifier_mulliken_charges(mf):
    """Stands in for an observable_ function: Mulliken atomic charges (ORCA: MULLIKEN ATOMIC CHARGES).

    Args:
        mf: a converged pyscf mean-field object.
    Returns:
        A numpy array with one charge per atom (they sum to the molecular charge).
    """
    _, charges = mf.mulliken_pop(verbose=0)
    return np.asarray(charges, dtype=float)

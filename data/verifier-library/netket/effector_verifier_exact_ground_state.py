import netket as nk
import numpy as np


def effector_verifier_exact_ground_state(hamiltonian, k=1):
    """Stands in for an effector_ function on small systems (Lanczos exact diagonalisation), and gives limiting-case references.

    Args:
        hamiltonian: a netket operator on a Hilbert space small enough to index (~20 spins-1/2 at most).
        k: number of lowest eigenvalues.
    Returns:
        A numpy array of the k lowest energies, ascending.
    """
    return np.sort(np.asarray(nk.exact.lanczos_ed(hamiltonian, k=k), dtype=float))

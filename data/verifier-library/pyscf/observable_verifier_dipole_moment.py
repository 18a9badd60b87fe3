import numpy as np


def observable_verifier_dipole_moment(mf):
    """Stands in for an observable_ function: the electric dipole moment (ORCA: the DIPOLE MOMENT section).

    Args:
        mf: a converged pyscf mean-field object.
    Returns:
        (vector, magnitude): the dipole vector and its length, in Debye.
    """
    vector = np.asarray(mf.dip_moment(unit="Debye", verbose=0), dtype=float)
    return vector, float(np.linalg.norm(vector))

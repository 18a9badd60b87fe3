import physvec_runtime as pv
from tenpy.algorithms import dmrg
from tenpy.models.lattice import TrivialLattice
from tenpy.models.model import MPOModel
from tenpy.networks.mpo import MPO


def effector_verifier_dmrg(model, psi0, max_sweeps=20, chi_max=100, svd_min=1e-10, min_sweeps=None, mixer=True, checkpoint=None):
    """Stands in for an effector_ function running finite DMRG (ITensors: dmrg(H, psi0; nsweeps, maxdim, cutoff)).

    Args:
        model: a tenpy model with H_MPO (e.g. from hamiltonian_verifier_*) or a bare tenpy MPO.
        psi0: initial finite MPS (copied, not modified); it fixes the conserved charge sector.
        max_sweeps: maximal number of sweeps (ITensors nsweeps); min_sweeps defaults to min(max_sweeps, 4).
        chi_max: maximal bond dimension (ITensors maxdim); svd_min: smallest kept singular value (cf. ITensors cutoff).
        mixer: subspace expansion, needed to grow the bond dimension from a product state.
        checkpoint: optional checkpoint name (physvec_runtime, HDF5): the engine's resume data is saved after
            every sweep, and a retried run that finds it continues from there; a finished run is not redone.
    Returns:
        (energy, psi): the ground-state energy and the optimised MPS. Two-site DMRG; single-site with the
        mixer for chains of fewer than 3 sites, where two-site DMRG is not defined.
    """
    if isinstance(model, MPO):
        model = MPOModel(TrivialLattice(psi0.sites), model)
    psi = psi0.copy()
    options = {
        "trunc_params": {"chi_max": chi_max, "svd_min": svd_min},
        "max_sweeps": max_sweeps,
        "min_sweeps": min(max_sweeps, 4) if min_sweeps is None else min_sweeps,
        "mixer": mixer,
    }
    engine_class = dmrg.TwoSiteDMRGEngine if psi.L >= 3 else dmrg.SingleSiteDMRGEngine
    return pv.checkpointed_dmrg(engine_class, psi, model, options, checkpoint)

"""Background functions for the demo unit harnesses, copied verbatim from the verifier library
(data/verifier-library/tenpy/); a harness is: the script's imports + this file + the element function
under test + unit/<function>.entry.py."""

# ---- site_verifier_spin_half_fermion_chain (data/verifier-library/tenpy/site_verifier_spin_half_fermion_chain.py)
from tenpy.networks.site import SpinHalfFermionSite


def site_verifier_spin_half_fermion_chain(L, cons_N="N", cons_Sz="Sz"):
    """Stands in for a site_ function of spinful fermions, e.g. a Hubbard chain (ITensors: siteinds("Electron", L; conserve_qns=true)).

    Args:
        L: number of sites.
        cons_N: "N" (conserve total particle number), "parity" or None.
        cons_Sz: "Sz" (conserve N_up - N_down, i.e. both spin populations with cons_N="N"), "parity" or None.
    Returns:
        A list of L tenpy SpinHalfFermionSite objects (operators Cdu, Cu, Cdd, Cd, Nu, Nd, NuNd, Ntot, Sz, JW;
        states "empty", "up", "down", "full").
    """
    site = SpinHalfFermionSite(cons_N=cons_N, cons_Sz=cons_Sz)
    return [site] * L

# ---- lattice_verifier_chain (data/verifier-library/tenpy/lattice_verifier_chain.py)
from tenpy.models.lattice import Chain


def lattice_verifier_chain(site, L, bc="open"):
    """Stands in for a lattice_ function of a one-dimensional chain.

    Args:
        site: one tenpy Site (e.g. SpinHalfSite(conserve="Sz")), repeated on every lattice site.
        L: number of sites.
        bc: "open" or "periodic" (periodic couplings on a finite MPS).
    Returns:
        A tenpy Chain lattice with bc_MPS="finite"; lat.mps_sites() gives the site list in MPS order and
        lat.pairs["nearest_neighbors"] the bonds.
    """
    return Chain(L, site, bc=bc, bc_MPS="finite")

# ---- hamiltonian_verifier_hubbard (data/verifier-library/tenpy/hamiltonian_verifier_hubbard.py)
import numpy as np
from tenpy.models.lattice import Lattice, TrivialLattice
from tenpy.models.model import CouplingModel, MPOModel


def hamiltonian_verifier_hubbard(sites, t=1.0, U=0.0, mu=0.0, potential=None, bonds=None):
    """Stands in for a hamiltonian_ function of the Fermi-Hubbard model:
    H = -t sum_<ij>,s (c+_is c_js + h.c.) + U sum_i n_iu n_id - mu sum_i n_i + sum_i V_i n_i
    (ITensors: an OpSum of "Cdagup","Cup", ... and "Nupdn" on siteinds("Electron")). Jordan-Wigner strings
    are inserted by tenpy.

    Args:
        sites: a list of SpinHalfFermionSite (site_verifier_spin_half_fermion_chain) or a tenpy Lattice of them.
        t: hopping; U: on-site interaction; mu: chemical potential.
        potential: optional per-site potential V_i (length = number of sites), e.g. a harmonic trap.
        bonds: list of (i, j) MPS-index pairs; default: open nearest-neighbour chain for a site list,
            the lattice's nearest neighbours for a Lattice.
    Returns:
        A tenpy MPOModel (model.H_MPO is the MPO).
    """
    if isinstance(sites, Lattice):
        if bonds is None:
            bonds = [(int(i), int(j)) for u1, u2, dx in sites.pairs["nearest_neighbors"] for i, j in zip(*sites.possible_couplings(u1, u2, dx)[:2])]
        sites = sites.mps_sites()
    if bonds is None:
        bonds = [(i, i + 1) for i in range(len(sites) - 1)]
    lat = TrivialLattice(sites)
    model = CouplingModel(lat)
    for i, j in bonds:
        model.add_local_term(-t, [("Cdu", [0, i]), ("Cu", [0, j])], plus_hc=True)
        model.add_local_term(-t, [("Cdd", [0, i]), ("Cd", [0, j])], plus_hc=True)
    onsite = -mu * np.ones(len(sites)) + (np.zeros(len(sites)) if potential is None else np.asarray(potential, dtype=float))
    for i in range(len(sites)):
        if U:
            model.add_onsite_term(U, i, "NuNd")
        if onsite[i]:
            model.add_onsite_term(onsite[i], i, "Ntot")
    return MPOModel(lat, model.calc_H_MPO())

# ---- initialstate_verifier_product_state (data/verifier-library/tenpy/initialstate_verifier_product_state.py)
from tenpy.networks.mps import MPS


def initialstate_verifier_product_state(sites, states):
    """Stands in for an initialstate_ function (ITensors: MPS(sites, states) / productMPS).

    Args:
        sites: list of tenpy sites (or a tenpy Lattice; its mps_sites() are used).
        states: one local state per site, by name ("up", "down", "empty", "full", "0", ...) or index; the
            product state fixes the conserved charges (particle numbers, Sz) DMRG then keeps.
    Returns:
        A finite tenpy MPS in that product state.
    """
    if hasattr(sites, "mps_sites"):
        sites = sites.mps_sites()
    if len(states) != len(sites):
        raise ValueError(f"got {len(states)} states for {len(sites)} sites")
    return MPS.from_product_state(sites, list(states), bc="finite", unit_cell_width=len(sites))

# ---- effector_verifier_dmrg (data/verifier-library/tenpy/effector_verifier_dmrg.py)
from tenpy.algorithms import dmrg
from tenpy.models.lattice import TrivialLattice
from tenpy.models.model import MPOModel
from tenpy.networks.mpo import MPO


def effector_verifier_dmrg(model, psi0, max_sweeps=20, chi_max=100, svd_min=1e-10, min_sweeps=None, mixer=True):
    """Stands in for an effector_ function running finite DMRG (ITensors: dmrg(H, psi0; nsweeps, maxdim, cutoff)).

    Args:
        model: a tenpy model with H_MPO (e.g. from hamiltonian_verifier_*) or a bare tenpy MPO.
        psi0: initial finite MPS (copied, not modified); it fixes the conserved charge sector.
        max_sweeps: maximal number of sweeps (ITensors nsweeps); min_sweeps defaults to min(max_sweeps, 4).
        chi_max: maximal bond dimension (ITensors maxdim); svd_min: smallest kept singular value (cf. ITensors cutoff).
        mixer: subspace expansion, needed to grow the bond dimension from a product state.
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
    energy, psi = engine_class(psi, model, options).run()
    return float(energy), psi

# ---- observable_verifier_expectation_values (data/verifier-library/tenpy/observable_verifier_expectation_values.py)
import numpy as np


def observable_verifier_expectation_values(psi, ops=("Sz",)):
    """Stands in for an observable_ function measuring local operators (ITensors: expect(psi, "Sz")).

    Args:
        psi: a finite tenpy MPS.
        ops: names of on-site operators of psi's sites ("Sz", "Nu", "Nd", "Ntot", "NuNd", ...).
    Returns:
        A dict {op: numpy array of <op_i> for every site i}.
    """
    return {op: np.real_if_close(np.asarray(psi.expectation_value(op))) for op in ops}

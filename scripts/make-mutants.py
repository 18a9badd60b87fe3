# Regenerates the mutant fixtures (data/references/<task>/mutants/) from the reference solutions:
# each mutant is its solution with one textual edit inside one element function. Rerun after changing a solution.
# Usage: .venv/bin/python scripts/make-mutants.py
import json
from pathlib import Path
R = Path(__file__).resolve().parent.parent / 'data' / 'references'
M = [
 ("task_dmrg_tezuka_1a", "wrong_filling", "initialstate_trap_centre_filling", "scientific", "assertion:0",
  "One spin-down atom too few: the down atoms fill order[:N_down - 1] (wrong filling / particle-number sector).",
  "up, down = set(order[:N_up]), set(order[:N_down])", "up, down = set(order[:N_up]), set(order[:N_down - 1])"),
 ("task_dmrg_tezuka_1a", "interaction_sign", "hamiltonian_trapped_hubbard", "scientific", "assertion:1",
  "The on-site interaction enters with the wrong sign (-U n_up n_down).",
  'model.add_onsite(U, 0, "NuNd")', 'model.add_onsite(-U, 0, "NuNd")'),
 ("task_dmrg_noack_twochain", "periodic_legs", "lattice_two_leg_ladder", "scientific", "assertion:3",
  "Periodic instead of open boundary conditions along the legs.",
  'return Ladder(L, site, bc="open", bc_MPS="finite")', 'return Ladder(L, site, bc="periodic", bc_MPS="finite")'),
 ("task_dmrg_heisenberg_chain", "pauli_zz", "hamiltonian_heisenberg", "scientific", "assertion:0",
  "Pauli matrix instead of spin operator in the zz term (sigma^z sigma^z = 4 Sz Sz): an XXZ chain with anisotropy 4.",
  'model.add_coupling(J, 0, "Sz", 0, "Sz", 1)', 'model.add_coupling(J, 0, "Sigmaz", 0, "Sigmaz", 1)'),
 ("task_dmrg_haldane_string", "wrong_string_kwarg", "observable_string_correlations", "programming", "unit",
  "Wrong library call: MPS.correlation_function has no keyword 'opstring' (it is 'opstr').",
  'opstr="StringZ", str_on_first=False', 'opstring="StringZ", str_on_first=False'),
 ("task_dmrg_haldane_string", "too_small_chi", "main", "scientific", "convergence",
  "The bond dimension of the production run is far too small (chi_max=4): the energy is not converged.",
  "chi_max, max_sweeps = 48, 6", "chi_max, max_sweeps = 4, 6"),
 ("task_nqs_carleo_tfim", "spin_not_pauli", "hamiltonian_transverse_field_ising", "scientific", "assertion:0",
  "Spin-1/2 operators S = sigma/2 instead of the article's Pauli matrices in the Ising term (factor 1/4).",
  "H -= J * nk.operator.spin.sigmaz(hilbert, i) @ nk.operator.spin.sigmaz(hilbert, j)",
  "H -= J * (0.5 * nk.operator.spin.sigmaz(hilbert, i)) @ (0.5 * nk.operator.spin.sigmaz(hilbert, j))"),
 ("task_nqs_carleo_tfim", "too_few_iterations", "main", "scientific", "convergence",
  "Far too few VMC iterations in the production run (n_iter=5): the energy is not converged.",
  "alphas, n_iter, n_samples, seed = [1, 2], 200, 1024, 1234", "alphas, n_iter, n_samples, seed = [1, 2], 5, 1024, 1234"),
 ("task_nqs_heisenberg_2d", "open_boundary", "lattice_square", "scientific", "assertion:2",
  "Open instead of periodic boundary conditions: the pbc argument is ignored.",
  "return nk.graph.Grid([Lx, Ly], pbc=pbc)", "return nk.graph.Grid([Lx, Ly], pbc=False)"),
 ("task_nqs_bose_hubbard", "wrong_rbm_keyword", "initialstate_rbm_full_sum", "programming", "unit",
  "Wrong library call: nk.models.RBM has no field 'hidden_density' (the hidden-unit density is 'alpha').",
  "model = nk.models.RBM(alpha=alpha, param_dtype=float)", "model = nk.models.RBM(hidden_density=alpha, param_dtype=float)"),
 ("task_nqs_jastrow_rbm", "meanfield_is_jastrow", "initialstate_full_sum", "scientific", "assertion:2",
  "Ansatz mix-up: the 'mean-field' branch builds a Jastrow model, so the mean-field energy drops below the classical product-state bound -L.",
  """    if ansatz == "mean-field":
        model = ProductState()""", """    if ansatz == "mean-field":
        model = nk.models.Jastrow(param_dtype=float)"""),
]
for task, name, fn, stage, caught, fault, old, new in M:
    d = R / task
    sol = (d / "solution.py").read_text()
    assert sol.count(old) == 1, (task, name, sol.count(old))
    (d / "mutants").mkdir(exist_ok=True)
    (d / "mutants" / f"{name}.py").write_text(sol.replace(old, new))
    (d / "mutants" / f"{name}.json").write_text(json.dumps({"faultyFunction": fn, "expectedStage": stage, "fault": fault, "caughtBy": caught}, indent=2) + "\n")
    print("wrote", task, name)

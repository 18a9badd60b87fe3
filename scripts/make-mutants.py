# Regenerates the mutant fixtures (data/references/<task>/mutants/) from the reference solutions:
# each mutant is its solution with one textual edit inside one function (an element function, or main for
# a production setting that the convergence test must catch). Rerun after changing a solution: the edit's
# `old` text must still occur exactly once.
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
  "Wrong library call: nk.models.RBMMultiVal has no field 'hidden_density' (the hidden-unit density is 'alpha').",
  "model = nk.models.RBMMultiVal(alpha=alpha, n_classes=hilbert.local_size, param_dtype=float)",
  "model = nk.models.RBMMultiVal(hidden_density=alpha, n_classes=hilbert.local_size, param_dtype=float)"),
 ("task_nqs_jastrow_rbm", "meanfield_is_jastrow", "initialstate_full_sum", "scientific", "assertion:2",
  "Ansatz mix-up: the 'mean-field' branch builds a Jastrow model, so the mean-field energy drops below the classical product-state bound -L.",
  """    if ansatz == "mean-field":
        model = ProductState()""", """    if ansatz == "mean-field":
        model = nk.models.Jastrow(param_dtype=float)"""),
 # dft and qsim (the fault text of each is the mutant description; old/new span whole lines)
 ('task_dft_h2_dissociation', 'minimal_basis', 'site_h2_molecule', 'scientific', 'assertion:1', 'wrong basis set: the molecule is always built in STO-3G whatever basis is asked for', '    return gto.M(atom=[["H", (0.0, 0.0, 0.0)], ["H", (0.0, 0.0, r_bohr)]], unit="Bohr", basis=basis, verbose=0)', '    return gto.M(atom=[["H", (0.0, 0.0, 0.0)], ["H", (0.0, 0.0, r_bohr)]], unit="Bohr", basis="sto-3g", verbose=0)'),
 ('task_dft_h2o_dipole', 'wrong_charge', 'site_water', 'scientific', 'assertion:2', 'wrong charge: the molecule is built as H2O^2+ (8 electrons) instead of neutral water', '                 basis=basis, charge=0, spin=0, verbose=0)', '                 basis=basis, charge=2, spin=0, verbose=0)'),
 ('task_dft_lih_b3lyp', 'nonexistent_b3lyp_class', 'effector_rks', 'programming', 'unit', 'wrong PySCF call: dft.B3LYP(mol) does not exist (AttributeError); the functional is chosen with mf.xc on dft.RKS', '    mf = dft.RKS(mol)\n    mf.xc = xc', '    mf = dft.B3LYP(mol)  # ORCA-style "! B3LYP" keyword taken for a PySCF class; PySCF has dft.RKS(mol, xc=...)'),
 ('task_dft_o2_triplet', 'wrong_multiplicity', 'site_o2', 'scientific', 'assertion:0', 'wrong spin multiplicity: O2 is always built with mol.spin = 0 (singlet) instead of the triplet ground state (spin = 2)', '    return gto.M(atom=[["O", (0.0, 0.0, 0.0)], ["O", (0.0, 0.0, r_angstrom)]], unit="Angstrom", basis=basis,\n                 spin=spin, verbose=0)', '    # multiplicity confused with spin: ORCA\'s "* xyz 0 1" read as singlet for every state\n    return gto.M(atom=[["O", (0.0, 0.0, 0.0)], ["O", (0.0, 0.0, r_angstrom)]], unit="Angstrom", basis=basis,\n                 spin=0, verbose=0)'),
 ('task_qsim_ipea_phase', 'feedback_sign', 'effector_ipea_iteration_circuit', 'scientific', 'assertion:0', 'the feedback rotation adds the phase of the known bits instead of removing it', '    omega = -2 * np.pi * sum(bit / 2 ** (j + 2) for j, bit in enumerate(known_bits))', '    omega = 2 * np.pi * sum(bit / 2 ** (j + 2) for j, bit in enumerate(known_bits))  # sign of the correction flipped'),
 ('task_qsim_trotter_domain_wall', 'big_endian_observable', 'observable_local_magnetisations', 'scientific', 'assertion:0', "observable built from a left-to-right Pauli label, ignoring qiskit's little-endian qubit order (site i measured on qubit n-1-i)", '    return [SparsePauliOp.from_sparse_list([("Z", [i], 1.0)], num_qubits=n_sites) for i in range(n_sites)]', '    # site i read from the i-th character of the label: qiskit labels are little-endian, so this is qubit n-1-i\n    return [SparsePauliOp("I" * i + "Z" + "I" * (n_sites - i - 1)) for i in range(n_sites)]'),
 ('task_qsim_trotter_domain_wall', 'removed_execute_api', 'effector_estimate', 'programming', 'unit', 'uses the removed qiskit 0.x API (from qiskit import Aer, execute), which raises ImportError on qiskit 2.x', '    estimator = StatevectorEstimator()\n    result = estimator.run([(qc, observables) for qc in circuits]).result()\n    return np.array([np.asarray(r.data.evs, dtype=float) for r in result])', '    from qiskit import Aer, execute  # qiskit < 1.0 API, removed in qiskit 1.0\n    backend = Aer.get_backend("statevector_simulator")\n    states = [execute(qc, backend).result().get_statevector() for qc in circuits]\n    return np.array([[float(np.real(s.expectation_value(o))) for o in observables] for s in states])'),
 ('task_qsim_trotter_domain_wall', 'single_trotter_step', 'effector_trotter_circuit', 'scientific', 'assertion:4', 'too few Trotter steps: the whole evolution is done in a single Trotter step', '    dt = t / n_steps', '    dt = t  # one big step for the whole time, whatever n_steps says\n    n_steps = 1'),
 ('task_qsim_trotter_domain_wall', 'spin_half_factor', 'hamiltonian_xxz_layers', 'scientific', 'assertion:0', 'exchange written with S = sigma/2 (factor 1/4) although the model is defined in Pauli matrices', '            terms += [("XX", [i, j], J), ("YY", [i, j], J), ("ZZ", [i, j], J * delta)]', '            # spin-1/2 operators S = sigma/2 instead of Pauli matrices\n            terms += [("XX", [i, j], J / 4), ("YY", [i, j], J / 4), ("ZZ", [i, j], J * delta / 4)]'),
 ('task_qsim_vqe_h2', 'no_entangler', 'effector_hardware_efficient_ansatz', 'scientific', 'assertion:2', 'the ansatz has no entangling gates, so VQE is limited to product states (Hartree-Fock-like energy)', '        if layer > 0:\n            for q in range(n - 1):\n                qc.cx(q, q + 1)', '        # entangling layer forgotten: the ansatz only spans product states'),
]
for task, name, fn, stage, caught, fault, old, new in M:
    d = R / task
    sol = (d / "solution.py").read_text()
    assert sol.count(old) == 1, (task, name, sol.count(old))
    (d / "mutants").mkdir(exist_ok=True)
    (d / "mutants" / f"{name}.py").write_text(sol.replace(old, new))
    (d / "mutants" / f"{name}.json").write_text(json.dumps({"faultyFunction": fn, "expectedStage": stage, "fault": fault, "caughtBy": caught}, indent=2) + "\n")
    print("wrote", task, name)

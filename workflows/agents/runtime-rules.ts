// How a Python script uses physvec_runtime (runners/PROTOCOL.md), as the Author's script prompt
// states it: progress values a person can watch, and checkpoints that let a crashed long
// simulation resume where it stopped instead of from zero. Pure data (imported by workflows).
export const RUNTIME_RULES = [
  'Long simulations (DMRG sweeps, VMC iterations, SCF cycles) use the sandbox runtime, `import physvec_runtime as pv`:',
  '- report where the run is with `pv.progress(sweep=k, max_sweeps=n, E=energy)` (numbers or short strings; the latest call wins);',
  '- checkpoint at natural boundaries inside the effector_ function, under a name made of all its parameters, and resume from it when it exists:',
  '  TeNPy: `pv.save_hdf5(name, {"resume_data": engine.get_resume_data(), "sweep_stats": engine.sweep_stats})` from `engine.checkpoint.connect(fn)`, then `Engine(psi, model, options, resume_data=saved["resume_data"])` and `engine.resume_run()`;',
  '  NetKet: every N iterations `pv.save_bytes(name, flax.serialization.msgpack_serialize({...}))` of `serialization.to_state_dict(vstate)`, the driver\'s optimizer state, the step count and the energy history; restore them before `driver.run(n_iter=remaining)`;',
  '  PySCF: `mf.chkfile = str(pv.checkpoint_path(name))` and, when `pv.exists(name)`, `mf.init_guess = "chkfile"`;',
  '  anything else: `pv.save_json` / `pv.load_json(name, default=None)` or `pv.save_npz` / `pv.load_npz`.',
  'A script that runs in seconds needs none of this.',
].join('\n');

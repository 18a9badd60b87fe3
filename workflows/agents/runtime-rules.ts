// How a Python script uses physvec_runtime (runners/PROTOCOL.md), as the Author's script prompt
// states it: progress values a person can watch, and checkpoints that let a crashed long
// simulation resume where it stopped instead of from zero. Pure data (imported by workflows).
export const RUNTIME_RULES = [
  'Long simulations (DMRG sweeps, VMC iterations, SCF cycles) use the sandbox runtime, `import physvec_runtime as pv`:',
  '- report where the run is with `pv.progress(sweep=k, max_sweeps=n, E=energy)` (numbers or short strings; the latest call wins);',
  '- checkpoint at natural boundaries inside the effector_ function, under a name made of all its parameters, and resume from it when it exists:',
  '  TeNPy: `energy, psi = pv.checkpointed_dmrg(dmrg.TwoSiteDMRGEngine, psi, model, options, checkpoint=name)` (saves the engine\'s resume data every sweep, resumes with resume_run());',
  '  NetKet: `energies = pv.checkpointed_vmc(driver, n_iter, checkpoint=name, every=10)` (variational, sampler and optimizer state saved every 10 steps; a resumed run continues the same chain of updates);',
  '  PySCF: `resumed = pv.use_chkfile(mf, name)` (its chkfile in the checkpoint dir; when resumed, call `mf.kernel()` without dm0);',
  '  anything else: `pv.save_json` / `pv.load_json(name, default=None)` or `pv.save_npz` / `pv.load_npz`.',
  'A script that runs in seconds needs none of this.',
].join('\n');

// How many sandbox runs one simulation worker takes at once: bounded by cores and by memory
// (each run may use up to its memory limit). Override with PHYSVEC_SIM_SLOTS.
import os from 'node:os';

export function defaultSimulationSlots(memoryPerRunMb = 3072): number {
  const fromEnv = Number(process.env.PHYSVEC_SIM_SLOTS);
  if (Number.isInteger(fromEnv) && fromEnv > 0) return fromEnv;
  const cores = os.availableParallelism?.() ?? os.cpus().length;
  const byMemory = Math.floor(os.totalmem() / (memoryPerRunMb * 1024 * 1024));
  return Math.max(1, Math.min(cores, byMemory));
}

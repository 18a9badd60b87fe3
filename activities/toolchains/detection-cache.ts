// A worker's per-process memory of toolchain detection: each profile's interpreter is probed once
// per worker process, and only for the profiles asked about (a reproduction's prepare asks for its
// own toolchain; for all of them only to substitute). Concurrent askers share one probe in flight.
// A 'timed out' result is not kept: it says the host was busy, not what is installed, so the next
// run (or the next attempt of this one) checks again.
import type { ToolchainProfile, ToolchainStatus } from '../../schemas/toolchain.js';
import { detectToolchain, detectToolchains } from './detect.js';

export type CachedDetection = (profiles?: readonly string[]) => Promise<ToolchainStatus[]>;

export function cachedDetection(detect: (profile: ToolchainProfile) => Promise<ToolchainStatus> = detectToolchain): CachedDetection {
  const detected = new Map<string, Promise<ToolchainStatus>>();
  const once = (p: ToolchainProfile): Promise<ToolchainStatus> => {
    const known = detected.get(p.name);
    if (known) return known;
    const status = detect(p);
    detected.set(p.name, status);
    const forget = () => {
      if (detected.get(p.name) === status) detected.delete(p.name);
    };
    void status.then((s) => s.state === 'timed out' && forget(), forget);
    return status;
  };
  return (profiles) => detectToolchains({ profiles: profiles ? [...profiles] : undefined, detect: once });
}

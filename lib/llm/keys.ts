// Call keys: which agent role asked, in which stage and iteration, and the how-manieth such call.
// Pure and deterministic: a workflow keeps one CallSequencer and asks it for each call's key.
import type { LlmCallKey } from '../../schemas/llm.js';

export function callKeyString(key: LlmCallKey): string {
  return `${key.role}/${key.stage}/${key.iteration}/${key.seq}`;
}

/** Hands out `seq` per (role, stage, iteration), from 0. Its state survives continue-as-new via snapshot(). */
export class CallSequencer {
  private readonly counts: Record<string, number>;

  constructor(snapshot: Record<string, number> = {}) {
    this.counts = { ...snapshot };
  }

  next(role: string, stage: string, iteration: number): LlmCallKey {
    const group = `${role}/${stage}/${iteration}`;
    const seq = this.counts[group] ?? 0;
    this.counts[group] = seq + 1;
    return { role, stage, iteration, seq };
  }

  snapshot(): Record<string, number> {
    return { ...this.counts };
  }
}

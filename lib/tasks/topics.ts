// Topic names: ours are the paper's (dmrg, nqs, qsim, dft); QMP-Bench's folders say nnwf, qcmb and dft_qc.
// Both spellings are accepted everywhere and mapped both ways.
import type { Topic } from '../../schemas/task.js';

const ALIASES: Readonly<Record<string, Topic>> = {
  dmrg: 'dmrg',
  nqs: 'nqs',
  nnwf: 'nqs',
  qsim: 'qsim',
  qcmb: 'qsim',
  dft: 'dft',
  dft_qc: 'dft',
};

/** Canonical topic for a name in either spelling (case-insensitive), or undefined if unknown. */
export function canonicalTopic(name: string): Topic | undefined {
  return Object.hasOwn(ALIASES, name.toLowerCase()) ? ALIASES[name.toLowerCase()] : undefined;
}

/** Every name (canonical and alias) that means this topic. */
export function topicNames(topic: Topic): string[] {
  return Object.keys(ALIASES).filter((k) => ALIASES[k] === topic);
}

export function describeKnownTopics(): string {
  return 'dmrg, nqs (= nnwf), qsim (= qcmb), dft (= dft_qc)';
}

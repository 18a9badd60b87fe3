#!/usr/bin/env node
// The `physvec` command: runs the TypeScript CLI through tsx (no build step).
//
// A verb that runs workers raises its priority here, first, before tsx and the CLI's modules are
// loaded: on a busy host (load 40 on 2 cores) that start-up at the neighbours' nice took 15-25 s of
// a worker's start-to-poll (issue 24.4). The rest of the raise (and the message about it) is
// lib/process-priority.ts's, which finds the process raised and the neighbours' nice in the
// environment, so sandbox scripts still start at the neighbours' priority.
import os from 'node:os';
import process from 'node:process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';

const WORKER_VERBS = new Set(['worker', 'demo']);

function configuredNice(args) {
  const i = args.findIndex((a) => a === '--nice' || a.startsWith('--nice='));
  const raw = i < 0 ? process.env.PHYSVEC_WORKER_NICE : args[i].startsWith('--nice=') ? args[i].slice(7) : args[i + 1];
  if (raw === undefined || raw.trim() === '') return -20;
  const n = Number(raw.trim());
  // 'off' or anything the CLI will refuse (with the fix) is left to it.
  return Number.isInteger(n) && n >= -20 && n <= 19 ? n : null;
}

function raiseEarly(nice) {
  const from = os.getPriority();
  if (nice >= from) return;
  try {
    for (let pass = 0; pass < 2; pass++) for (const tid of readdirSync('/proc/self/task')) os.setPriority(Number(tid), nice);
  } catch {
    return; // not permitted: the CLI says so
  }
  try {
    if (readFileSync('/proc/sys/kernel/sched_autogroup_enabled', 'utf8').trim() === '1') writeFileSync('/proc/self/autogroup', String(nice));
  } catch {
    /* threads are raised within the session */
  }
  if (!process.env.PHYSVEC_NEIGHBOUR_NICE) process.env.PHYSVEC_NEIGHBOUR_NICE = String(from);
}

if (WORKER_VERBS.has(process.argv[2] ?? '')) {
  const nice = configuredNice(process.argv.slice(3));
  if (nice !== null) raiseEarly(nice);
}

const { register } = await import('tsx/esm/api');
register();
await import('../cli/main.ts');

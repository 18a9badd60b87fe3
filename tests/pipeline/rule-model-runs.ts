// Shared by the self-repair tests that run the smoke dimer task twice against a loopback OpenAI
// server answering by rules (not a cassette): once with a clean model, once with a model that makes
// one mistake. The cassette supplies the good answers the rules start from.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { NativeConnection } from '@temporalio/worker';
import { ensureServer, testClient, workflowBundle } from '../helpers/temporal.js';
import { startFakeOpenAI } from '../helpers/fake-openai-server.js';
import type { ReceivedRequest, ReplySource } from '../helpers/fake-llm-http.js';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { createWorkers } from '../../workers/create-workers.js';
import { startReproduction } from '../../cli/runs/reproduction-run.js';
import { repoRoot } from '../../lib/paths.js';
import type { ReproductionResult } from '../../workflows/reproduction/index.js';
import type { ReproductionInput } from '../../schemas/pipeline.js';
import { saveEnv } from '../helpers/env.js';

export const TASK = path.join(repoRoot, 'data/tasks/smoke/task_smoke_dimer_pipeline.json');
const CASSETTE = JSON.parse(readFileSync(path.join(repoRoot, 'data/cassettes/task_smoke_dimer_pipeline.json'), 'utf8')) as { entries: { role: string; json: any }[] };
export const byRole = (role: string) => CASSETTE.entries.find((e) => e.role === role)!.json;
export const PLAN = CASSETTE.entries.filter((e) => e.role === 'author')[0]!.json;
export const SUMMARY = CASSETTE.entries.filter((e) => e.role === 'author')[1]!.json;
export const GOOD_SCRIPT: string = byRole('coder').script;

export interface RuleRun<L> {
  result: ReproductionResult;
  report: any;
  log: L;
  requests: number;
}

/** The task run with `rules(false)` and then `rules(true)` answering, on in-process workers. */
export async function runCleanAndFault<L>(rules: (fault: boolean) => { reply: ReplySource; log: L }): Promise<{ clean: RuleRun<L>; fault: RuleRun<L> }> {
  const runs = await runScenarios((name) => rules(name === 'fault'), ['clean', 'fault']);
  return { clean: runs.clean!, fault: runs.fault! };
}

/**
 * The task run once per scenario, in order, with `rules(scenario)` answering, on one set of
 * in-process workers (so several fault kinds share the server and workers of one test file).
 */
export async function runScenarios<L, S extends string>(
  rules: (scenario: S) => { reply: ReplySource; log: L },
  scenarios: readonly S[],
  opts: { task?: string; limits?: ReproductionInput['limits'] } = {},
): Promise<Record<S, RuleRun<L>>> {
  const address = await ensureServer();
  const { client, connection } = await testClient();
  const wconn = await NativeConnection.connect({ address });
  const workers = await createWorkers(wconn, 'default', 'all', { workflowBundle: await workflowBundle() });
  const restoreEnv = saveEnv('OPENAI_API_KEY', 'OPENAI_BASE_URL');
  const runs: Partial<Record<S, RuleRun<L>>> = {};
  try {
    const [orch, sim] = workers;
    await orch!.runUntil(sim!.runUntil((async () => {
      for (const scenario of scenarios) {
        const fake = await startFakeOpenAI({ apiKey: 'sk-loopback' });
        const model = rules(scenario);
        for (let i = 0; i < 60; i++) fake.enqueue(model.reply);
        process.env.OPENAI_API_KEY = 'sk-loopback';
        process.env.OPENAI_BASE_URL = fake.baseUrl;
        try {
          const started = await startReproduction(client, opts.task ?? TASK, { model: 'openai:gpt-4o-mini', ...(opts.limits ? { limits: opts.limits } : {}) });
          const result = (await started.handle.result()) as ReproductionResult;
          runs[scenario] = { result, report: JSON.parse(readFileSync(result.report!.jsonPath, 'utf8')), log: model.log, requests: fake.requests.length };
        } finally {
          await fake.close();
        }
      }
    })()));
  } finally {
    restoreEnv();
    await connection.close();
    await wconn.close();
  }
  return runs as Record<S, RuleRun<L>>;
}

/**
 * Input tokens of a request as an OpenAI model bills them: the o200k_base tokens of each message's
 * content (3 a message and 3 to prime the answer) plus the tools and the structured-output schema,
 * which the provider adds to the prompt — so a rewrite's cost includes its schema, as it would.
 */
export function promptTokens(req: ReceivedRequest): number {
  const messages = req.body.messages as { content: unknown }[];
  const text = (v: unknown) => (v === undefined ? 0 : encode(typeof v === 'string' ? v : JSON.stringify(v)).length);
  return messages.reduce((n, m) => n + 3 + text(m.content), 3) + text(req.body.tools) + text(req.body.response_format);
}

/** Input tokens a fault run spent over the clean run, as a fraction of the clean run's. */
export function tokenOverhead(clean: RuleRun<unknown>, fault: RuleRun<unknown>): number {
  return fault.result.tokens.inputTokens / clean.result.tokens.inputTokens - 1;
}

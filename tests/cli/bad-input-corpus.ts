// The bad-input corpus: what a new user gets wrong — task files, rubrics, the config file, flags,
// cassettes — and the server states they meet (none running, an unknown id, no worker). Each case
// says which exit code it must get and what the first line must say (the file/field/flag and the fix).
// Variants are made from files we did not write where possible (QMP-Bench's task_dmrg_7_2 and its
// rubric, as published) and from our own bundled task.
import { cp, mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { repoRoot, qmpBenchRoot } from '../../lib/paths.js';

export type Group = 'task file' | 'rubric' | 'config' | 'flag' | 'cassette' | 'server';

export interface Case {
  group: Group;
  /** The input, as the table shows it. */
  input: string;
  args: string[];
  env?: Record<string, string>;
  exit: number;
  /** Must match the first line (of stderr, without the `physvec: ` prefix; of stdout when `from` says so). */
  first: RegExp;
  from?: 'stderr' | 'stdout';
  /** --json: stdout must be one JSON error document whose message matches `first` too. */
  json?: boolean;
  /** Also required somewhere in the output. */
  mentions?: RegExp;
}

export const TEZUKA = path.join(repoRoot, 'data/tasks/dmrg/task_dmrg_tezuka_1a.json');
const TEZUKA_MODEL = 'scripted:task_dmrg_tezuka_1a';
const QMP_TASK = 'dmrg/tasks/task_dmrg_7_2.json';
const QMP_RUBRIC = 'Rubrics/dmrg/PhysRevLett.100.110403_Fig._1_a_right_rubrics.json';

export interface CorpusContext {
  dir: string;
  /** A closed port on this host: nothing answers there. */
  closedPort: number;
  /** A campaign seeded in the results store. */
  seededCampaign: string;
  /** A workflow that runs on a queue no worker polls. */
  unpolledWorkflow: string;
  /** Whether the Julia ITensors profile is installed (then --toolchain itensors is not bad input). */
  juliaPresent: boolean;
}

async function writeText(file: string, text: string): Promise<string> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text);
  return file;
}
const writeJson = (file: string, v: unknown) => writeText(file, JSON.stringify(v, null, 2));

/** A QMP-Bench-layout copy holding task_dmrg_7_2 and its rubric, with `edit` applied to the rubric text. */
async function qmpCopy(dir: string, name: string, editRubric: (text: string) => string): Promise<string> {
  const root = path.join(dir, name);
  for (const rel of [QMP_TASK, 'dmrg/sources/PhysRevLett.100.110403.tex']) {
    await mkdir(path.dirname(path.join(root, rel)), { recursive: true });
    await cp(path.join(qmpBenchRoot, rel), path.join(root, rel));
  }
  await writeText(path.join(root, QMP_RUBRIC), editRubric(await readFile(path.join(qmpBenchRoot, QMP_RUBRIC), 'utf8')));
  return root;
}

export async function buildCorpus(ctx: CorpusContext): Promise<Case[]> {
  const { dir } = ctx;
  const base = JSON.parse(await readFile(TEZUKA, 'utf8'));
  delete base.id;
  delete base.digest;
  delete base.reference;
  const lone = (name: string) => path.join(dir, 'lone', `task_dmrg_${name}.json`);
  const variant = async (name: string, edit: (t: any) => void) => {
    const t = structuredClone(base);
    edit(t);
    return writeJson(lone(name), t);
  };
  const reproduce = (file: string, ...more: string[]) => ['reproduce', file, '--no-wait', ...more];
  const cases: Case[] = [];
  const add = (c: Case) => cases.push(c);

  // ---- task files (the loader's errors, lib/tasks) ------------------------------------------------
  add({ group: 'task file', input: 'reproduce <missing task file>', args: reproduce(lone('missing')), exit: 2, first: /task_dmrg_missing\.json: .*file not found/ });
  add({ group: 'task file', input: 'task file is not JSON', args: reproduce(await writeText(lone('notjson'), '{"pdf_path": "sources", oops')), exit: 2, first: /task_dmrg_notjson\.json.*(JSON|line \d)/i });
  add({ group: 'task file', input: 'task file is empty', args: reproduce(await writeText(lone('empty'), '')), exit: 2, first: /task_dmrg_empty\.json/ });
  add({ group: 'task file', input: 'task file is a JSON array', args: reproduce(await writeText(lone('array'), '[]')), exit: 2, first: /task_dmrg_array\.json/ });
  add({ group: 'task file', input: 'task file truncated mid-way', args: reproduce(await writeText(lone('truncated'), JSON.stringify(base).slice(0, 300))), exit: 2, first: /task_dmrg_truncated\.json/ });
  add({ group: 'task file', input: 'User_requests missing', args: reproduce(await variant('norequest', (t) => delete t.User_requests)), exit: 2, first: /task_dmrg_norequest\.json: User_requests: .*expected string/ });
  add({ group: 'task file', input: 'pdf_name is a number', args: reproduce(await variant('pdfnum', (t) => (t.pdf_name = 42))), exit: 2, first: /task_dmrg_pdfnum\.json: pdf_name: .*expected string/ });
  add({ group: 'task file', input: 'rubrics_name missing', args: reproduce(await variant('norubricname', (t) => delete t.rubrics_name)), exit: 2, first: /task_dmrg_norubricname\.json: rubrics_name/ });
  add({ group: 'task file', input: 'topic "chemistry"', args: reproduce(await variant('badtopic', (t) => (t.topic = 'chemistry'))), exit: 2, first: /task_dmrg_badtopic\.json: topic/ });
  add({ group: 'task file', input: 'LimitingCases is an object', args: reproduce(await variant('limobj', (t) => (t.LimitingCases = { content: 'x' }))), exit: 2, first: /task_dmrg_limobj\.json: LimitingCases/ });
  add({ group: 'task file', input: 'a limiting case without truth', args: reproduce(await variant('notruth', (t) => delete t.LimitingCases[0].truth)), exit: 2, first: /task_dmrg_notruth\.json: LimitingCases\.0\.truth/ });
  add({ group: 'task file', input: 'digest names a missing file', args: reproduce(await variant('nodigest', (t) => (t.digest = 'data/papers/no-such-digest.md'))), exit: 2, first: /task_dmrg_nodigest\.json: digest: digest file not found/ });
  add({ group: 'task file', input: 'reference names a missing file', args: reproduce(await variant('noref', (t) => (t.reference = 'data/references/none/solution.py'))), exit: 2, first: /task_dmrg_noref\.json: reference: reference solution not found/ });
  add({ group: 'task file', input: 'digest path escapes the repository', args: reproduce(await variant('escape', (t) => (t.digest = '../../../../../../etc/hostname'))), exit: 2, first: /task_dmrg_escape\.json: digest: .*outside .*use a path inside them/ });
  add({ group: 'task file', input: 'scaled without reason', args: reproduce(await variant('scaled', (t) => delete t.scaled.reason)), exit: 2, first: /task_dmrg_scaled\.json: scaled/ });
  add({ group: 'task file', input: 'ConvergenceCases entry without criteria', args: reproduce(await variant('nocrit', (t) => delete t.ConvergenceCases[0].criteria)), exit: 2, first: /task_dmrg_nocrit\.json: ConvergenceCases\.0/ });
  add({ group: 'task file', input: 'a task file of 2 MiB', args: reproduce(await writeText(lone('huge'), JSON.stringify({ ...base, User_requests: 'x'.repeat(2 * 1024 * 1024) }))), exit: 2, first: /task_dmrg_huge\.json.*(MiB|too large|size|limit)/i });
  add({ group: 'task file', input: 'a directory instead of a task file', args: reproduce(path.join(dir, 'lone')), exit: 2, first: /lone/ });
  add({ group: 'task file', input: 'tasks validate <missing dir>', args: ['tasks', 'validate', path.join(dir, 'no-such-dataset')], exit: 2, first: /no-such-dataset.*not a directory/ });
  // Issue 27.9: nothing repaired silently.
  const truth0 = (tol: string) => (t: any) => (t.LimitingCases[0].truth = `The ground state energy is -2. The relative error tolerance is +/- ${tol}.`);
  add({ group: 'task file', input: 'a negative tolerance', args: reproduce(await variant('negtol', truth0('-0.01'))), exit: 2, first: /task_dmrg_negtol\.json: LimitingCases\.0\.truth: the tolerance -0\.01 is negative; .*write "\+\/- 0\.01"/ });
  add({ group: 'task file', input: 'a tolerance of 0', args: reproduce(await variant('zerotol', truth0('0'))), exit: 2, first: /task_dmrg_zerotol\.json: LimitingCases\.0\.truth: the tolerance is 0: no computed value matches exactly/ });
  add({ group: 'task file', input: 'a NaN tolerance', args: reproduce(await variant('nantol', truth0('NaN'))), exit: 2, first: /task_dmrg_nantol\.json: LimitingCases\.0\.truth: the tolerance "NaN" is not a number/ });
  add({ group: 'task file', input: 'a NaN convergence tolerance', args: reproduce(await variant('nancrit', (t) => (t.ConvergenceCases[0].criteria = 'The energy is stable within the absolute error tolerance of NaN.'))), exit: 2, first: /task_dmrg_nancrit\.json: ConvergenceCases\.0\.criteria: the tolerance "NaN" is not a number/ });
  add({ group: 'task file', input: 'subplot_name with "/"', args: reproduce(await variant('slash', (t) => (t.subplot_name = 'Fig._1/a'))), exit: 2, first: /task_dmrg_slash\.json: subplot_name: "Fig\._1\/a" contains a path separator \(\/\); .*e\.g\. "Fig\._1_a"/ });
  add({ group: 'task file', input: 'subplot_name with ".."', args: reproduce(await variant('dotdot', (t) => (t.subplot_name = '..'))), exit: 2, first: /task_dmrg_dotdot\.json: subplot_name: "\.\." contains "\.\."/ });
  const dupText = JSON.stringify(base, null, 2).replace(/\n  "User_requests": /, '\n  "User_requests": "first",\n  "User_requests": ');
  add({ group: 'task file', input: 'a key given twice', args: reproduce(await writeText(lone('dupkey'), dupText)), exit: 2, first: /task_dmrg_dupkey\.json: User_requests: key "User_requests" given twice \(lines \d+ and \d+\); .*remove one/ });
  if (existsSync(path.join(qmpBenchRoot, QMP_RUBRIC))) {
    const linked = await qmpCopy(dir, 'qmp-symlink', (t) => t);
    await symlink(TEZUKA, path.join(linked, 'dmrg/tasks/task_dmrg_9_1.json'));
    await symlink(path.join(linked, QMP_TASK), path.join(linked, 'dmrg/tasks/task_dmrg_9_2.json'));
    add({ group: 'task file', input: 'tasks validate: symlinked task files', args: ['tasks', 'validate', linked], exit: 0, first: /^task_dmrg_7_2 /, from: 'stdout', mentions: /2 task files[\s\S]*warning: .*task_dmrg_9_1\.json: is a symbolic link to .*task_dmrg_tezuka_1a\.json, outside the dataset root .*; it was skipped/ });
  }
  add({ group: 'task file', input: 'no topic field, folder not a topic', args: reproduce(await writeJson(path.join(dir, 'misc', 'x', 'mytask.json'), { ...base, topic: undefined })), exit: 2, first: /mytask\.json: topic: cannot tell the topic.*set "topic" to one of dmrg/ });

  // ---- rubrics (QMP-Bench's published rubric of task_dmrg_7_2, edited) -----------------------------
  if (existsSync(path.join(qmpBenchRoot, QMP_RUBRIC))) {
    const qmpArgs = (root: string) => ['reproduce', path.join(root, QMP_TASK), '--dataset', root, '--model', 'scripted:task_dmrg_7_2', '--toolchain', 'tenpy', '--no-wait'];
    const norm = await qmpCopy(dir, 'qmp-normcheck', (t) => { const v = JSON.parse(t); v.children[2].weight = 0.1; return JSON.stringify(v); });
    add({ group: 'rubric', input: 'rubric weights do not sum to 1 (NormCheck)', args: qmpArgs(norm), exit: 2, first: /_rubrics\.json: children: NormCheck failed/ });
    add({ group: 'rubric', input: 'tasks validate on that dataset', args: ['tasks', 'validate', norm], exit: 2, first: /^error: .*_rubrics\.json: children: NormCheck failed/, from: 'stdout' });
    add({ group: 'rubric', input: 'rubric is not JSON', args: qmpArgs(await qmpCopy(dir, 'qmp-notjson', (t) => t.slice(0, t.length / 2))), exit: 2, first: /_rubrics\.json/ });
    add({ group: 'rubric', input: 'rubric is a JSON array', args: qmpArgs(await qmpCopy(dir, 'qmp-array', () => '[]')), exit: 2, first: /_rubrics\.json/ });
    add({ group: 'rubric', input: 'rubric leaf without weight', args: qmpArgs(await qmpCopy(dir, 'qmp-noweight', (t) => { const v = JSON.parse(t); delete v.children[0].weight; return JSON.stringify(v); })), exit: 2, first: /_rubrics\.json: children\.0/ });
    add({ group: 'rubric', input: 'rubric children is a string', args: qmpArgs(await qmpCopy(dir, 'qmp-children', (t) => { const v = JSON.parse(t); v.children = 'none'; return JSON.stringify(v); })), exit: 2, first: /_rubrics\.json: children/ });
  }

  // ---- the config file (PHYSVEC_CONFIG) -------------------------------------------------------------
  const config = JSON.parse(await readFile(path.join(repoRoot, 'physvec.config.json'), 'utf8'));
  const configVariant = async (name: string, edit: (c: any) => void) => {
    const c = structuredClone(config);
    edit(c);
    return { PHYSVEC_CONFIG: await writeJson(path.join(dir, 'config', `${name}.json`), c) };
  };
  const withConfig = (env: Record<string, string>, input: string, first: RegExp, args = reproduce(TEZUKA)) => add({ group: 'config', input, args, env, exit: 2, first });
  withConfig({ PHYSVEC_CONFIG: path.join(dir, 'config', 'missing.json') }, 'PHYSVEC_CONFIG names a missing file', /missing\.json: cannot read the configuration .*set PHYSVEC_CONFIG/);
  withConfig({ PHYSVEC_CONFIG: await writeText(path.join(dir, 'config', 'notjson.json'), '{"llm": ') }, 'config is not JSON', /notjson\.json: cannot read the configuration/);
  withConfig(await configVariant('provider', (c) => (c.llm.defaultModel = 'acme:big')), 'llm.defaultModel with an unknown provider', /provider\.json: llm\.defaultModel: unknown provider "acme".*add it under llm\.providers/);
  withConfig(await configVariant('nocolon', (c) => (c.llm.defaultModel = 'gpt-5')), 'llm.defaultModel without provider', /nocolon\.json: llm\.defaultModel/);
  withConfig(await configVariant('role', (c) => (c.llm.roles = { writer: 'openai:gpt-5' })), 'llm.roles has an unknown role', /role\.json: llm\.roles\.writer: unknown agent role "writer"; known roles: author/);
  withConfig(await configVariant('roleprov', (c) => (c.llm.roles = { author: 'acme:x' })), 'llm.roles.author with an unknown provider', /roleprov\.json: llm\.roles\.author: unknown provider "acme"/);
  withConfig(await configVariant('budget', (c) => (c.budget.maxUsd = -1)), 'budget.maxUsd is negative', /budget\.json: budget\.maxUsd/);
  withConfig(await configVariant('kind', (c) => (c.llm.providers.openai.kind = 'soap')), 'a provider of unknown kind', /kind\.json: llm\.providers\.openai/);
  withConfig(await configVariant('cassette', (c) => (c.llm.defaultModel = 'scripted:no-such-cassette')), 'llm.defaultModel is a missing cassette', /cassette\.json: llm\.defaultModel "scripted:no-such-cassette": cassette .* does not exist/);
  withConfig(await configVariant('runtimeout', (c) => (c.sandbox = { runTimeoutSeconds: -5 })), 'sandbox.runTimeoutSeconds negative', /runtimeout\.json: sandbox\.runTimeoutSeconds/);
  withConfig(await configVariant('array', (c) => (c.llm = [])), 'llm section is an array', /array\.json: llm/);
  withConfig(await configVariant('bench', (c) => (c.llm.defaultModel = 'acme:big')), 'bench run with that config', /bench\.json: llm\.defaultModel: unknown provider/, ['bench', 'run', '--tasks', 'dimer_pipeline', '--no-wait']);

  // ---- flags ---------------------------------------------------------------------------------------
  const flag = (input: string, args: string[], first: RegExp, exit = 2, more: Partial<Case> = {}) => add({ group: 'flag', input, args, exit, first, ...more });
  flag('physvec frobnicate', ['frobnicate'], /unknown command 'frobnicate'.*--help/);
  flag('reproduce (no task)', ['reproduce'], /missing required argument 'task'.*physvec reproduce --help/);
  flag('reproduce --frob', reproduce(TEZUKA, '--frob'), /unknown option '--frob'.*physvec reproduce --help/);
  flag('--budget-usd -3', reproduce(TEZUKA, '--budget-usd', '-3'), /--budget-usd "-3": expected a number > 0/);
  flag('--budget-usd lots', reproduce(TEZUKA, '--budget-usd', 'lots'), /--budget-usd "lots": expected a number/);
  flag('--budget-tokens 1.5', reproduce(TEZUKA, '--budget-tokens', '1.5'), /--budget-tokens "1\.5": expected a whole number/);
  flag('--run-timeout 0', reproduce(TEZUKA, '--run-timeout', '0'), /--run-timeout "0": expected a number > 0/);
  flag('--run-timeout soon', reproduce(TEZUKA, '--run-timeout', 'soon'), /--run-timeout "soon": expected a number/);
  flag('--run-timeout 2.5', reproduce(TEZUKA, '--run-timeout', '2.5'), /--run-timeout "2\.5": expected a whole number/);
  flag('--deadline-hours 0', reproduce(TEZUKA, '--deadline-hours', '0'), /--deadline-hours "0": expected a number > 0/);
  flag('--deadline-hours 100000', reproduce(TEZUKA, '--deadline-hours', '100000'), /--deadline-hours: expected a positive number of hours up to 8760, got 100000/);
  flag('--pause-after lunch', reproduce(TEZUKA, '--pause-after', 'lunch'), /--pause-after "lunch": expected one of author, programming/);
  flag('reproduce --workers some', reproduce(TEZUKA, '--workers', 'some'), /--workers "some": expected one of auto, in-process, external/);
  flag('--model acme:big', reproduce(TEZUKA, '--model', 'acme:big'), /--model: unknown provider "acme" .*known: scripted/);
  flag('--model given twice', reproduce(TEZUKA, '--model', 'openai:x', '--model', 'openai:y'), /--model given twice \(openai:x, openai:y\): give it once/);
  flag('bench run --trials given twice', ['bench', 'run', '--trials', '1', '--trials', '2'], /--trials given twice \(1, 2\): give it once/);
  flag('--model gpt-5 (no provider)', reproduce(TEZUKA, '--model', 'gpt-5'), /--model: "gpt-5" is not/);
  flag('--role-model author', reproduce(TEZUKA, '--role-model', 'author'), /--role-model author: expected <role>=<provider:model>, e.g\./);
  flag('--role-model writer=…', reproduce(TEZUKA, '--model', TEZUKA_MODEL, '--role-model', 'writer=openai:gpt-5'), /--role-model writer=openai:gpt-5: unknown agent role "writer"; known roles:/);
  flag('--toolchain tensorflow', reproduce(TEZUKA, '--model', TEZUKA_MODEL, '--toolchain', 'tensorflow'), /--toolchain tensorflow: unknown toolchain profile; known: .*tenpy/);
  flag('--toolchain qiskit on a DMRG task', reproduce(TEZUKA, '--model', TEZUKA_MODEL, '--toolchain', 'qiskit'), /--toolchain qiskit serves qsim tasks, not dmrg; profiles for dmrg: itensors, tenpy/);
  if (!ctx.juliaPresent) {
    flag('--toolchain itensors without Julia', reproduce(TEZUKA, '--model', TEZUKA_MODEL, '--toolchain', 'itensors'), /--toolchain itensors was given, but ITensors.* is not installed here; install julia/);
    if (existsSync(path.join(qmpBenchRoot, QMP_TASK))) {
      flag('QMP task demanding ITensors, no --toolchain', reproduce(path.join(qmpBenchRoot, QMP_TASK), '--model', 'scripted:task_dmrg_7_2'), /task_dmrg_7_2 demands ITensors.*rerun with --toolchain tenpy/);
    }
  }
  flag('--dataset <missing dir>', reproduce(TEZUKA, '--dataset', path.join(dir, 'nowhere')), /--dataset .*nowhere: not a directory; give the dataset root/);
  flag('reproduce --json --budget-usd x', reproduce(TEZUKA, '--json', '--budget-usd', 'x'), /--budget-usd "x": expected a number/, 2, { json: true });
  flag('bench run --trials x', ['bench', 'run', '--trials', 'x'], /--trials "x": expected a number/);
  flag('bench run --trials 0', ['bench', 'run', '--trials', '0'], /--trials "0": expected a number > 0/);
  flag('bench run --concurrency -1', ['bench', 'run', '--concurrency', '-1'], /--concurrency "-1": expected a number > 0/);
  flag('bench run --pass-criterion vibes', ['bench', 'run', '--pass-criterion', 'vibes'], /--pass-criterion "vibes": expected one of executable, scientific/);
  flag('bench run --frameworks autogpt', ['bench', 'run', '--frameworks', 'autogpt'], /--frameworks: expected one of physvec, react/);
  flag('bench run --tasks zzz_nothing', ['bench', 'run', '--tasks', 'zzz_nothing'], /selection\.ids: no task id .* contains any of "zzz_nothing"; ids there include/);
  flag('bench run --models acme:big', ['bench', 'run', '--tasks', 'dimer_pipeline', '--models', 'acme:big'], /models\.0: unknown provider "acme"/);
  flag('bench run --workers some', ['bench', 'run', '--workers', 'some'], /--workers "some": expected one of/);
  flag('bench run --json --trials x', ['bench', 'run', '--json', '--trials', 'x'], /--trials "x": expected a number/, 2, { json: true });
  const spec = await writeJson(path.join(dir, 'spec.json'), { selection: { root: path.join(repoRoot, 'data/tasks'), ids: ['dimer_pipeline'] }, models: ['scripted:campaign/{task}.t{trial}'], trials: 1 });
  const badSpec = await writeJson(path.join(dir, 'bad-spec.json'), { selection: { ids: ['dimer_pipeline'] }, models: ['scripted:campaign/{task}.t{trial}'], trials: 'two' });
  flag('bench run --spec <missing>', ['bench', 'run', '--spec', path.join(dir, 'nope.json')], /nope\.json: file not found \(give --spec a campaign JSON file\)/);
  flag('bench run --spec and --trials', ['bench', 'run', '--spec', spec, '--trials', '2'], /--spec .*: give the campaign either as a file or as flags, not both \(drop --trials\)/);
  flag('bench run --spec with trials "two"', ['bench', 'run', '--spec', badSpec], /bad-spec\.json: trials/);
  flag('schedule create --cron "99 99 * * *"', ['schedule', 'create', 'corpus-sched', '--spec', spec, '--cron', '99 99 * * *'], /--cron "99 99 \* \* \*": .*write five fields/);
  flag('schedule create (neither --cron nor --every)', ['schedule', 'create', 'corpus-sched', '--spec', spec], /give exactly one of --cron <expr> and --every <duration>/);
  flag('schedule create --cron and --every', ['schedule', 'create', 'corpus-sched', '--spec', spec, '--cron', '0 3 * * *', '--every', '1h'], /give exactly one of --cron/);
  flag('schedule create --every 5x', ['schedule', 'create', 'corpus-sched', '--spec', spec, '--every', '5x'], /--every 5x: not a duration; write e\.g\. 30s/);
  flag('schedule create "bad id"', ['schedule', 'create', 'bad id', '--spec', spec, '--every', '1h'], /schedule id "bad id": use letters, digits/);
  flag('schedule create --overlap sometimes', ['schedule', 'create', 'corpus-sched', '--spec', spec, '--every', '1h', '--overlap', 'sometimes'], /--overlap sometimes: use one of skip/);
  flag('schedule create --catchup-window soon', ['schedule', 'create', 'corpus-sched', '--spec', spec, '--every', '1h', '--catchup-window', 'soon'], /--catchup-window soon: not a duration/);
  flag('schedule create (no --spec)', ['schedule', 'create', 'corpus-sched', '--every', '1h'], /required option '--spec <campaign\.json>' not specified/);
  flag('results export --format xml', ['results', 'export', ctx.seededCampaign, '--format', 'xml'], /--format xml: use csv or json/);
  flag('runs --verdict great', ['runs', '--verdict', 'great'], /--verdict great: use one of running, paused, passed, failed/);
  flag('runs --topic chemistry', ['runs', '--topic', 'chemistry'], /--topic chemistry: unknown topic; use one of dmrg/);
  flag('runs --limit 0', ['runs', '--limit', '0'], /--limit "0": expected a number > 0/);
  flag('view --port abc', ['view', '--port', 'abc'], /--port "abc": expected a number/);
  flag('view --port 70000', ['view', '--port', '70000'], /--port "70000": expected a number ≤ 65535/);
  flag('view --out and --port', ['view', '--out', path.join(ctx.dir, 'view'), '--port', '8300'], /--port 8300 with --out .*: --out writes a page and serves nothing; give one of them/);
  flag('worker --queue gpu', ['worker', '--queue', 'gpu'], /--queue: expected orchestration, simulation, large or all, got "gpu"/);
  flag('worker --metrics host:9464', ['worker', '--metrics', 'prometheus-host:9464'], /--metrics: "prometheus-host" is not an IP address .*e\.g\. :9464/);
  flag('worker --traces jaeger', ['worker', '--traces', 'jaeger'], /--traces: expected otlp, console or off, got "jaeger"/);
  flag('tasks validate (no root)', ['tasks', 'validate'], /missing required argument/);
  flag('status (no id)', ['status'], /missing required argument 'workflowId'/);
  flag('stop (no id)', ['stop'], /missing required argument 'workflowId'/);
  flag('approve (no id)', ['approve'], /missing required argument 'workflowId'/);
  flag('upgrade (no --to)', ['upgrade', 'x'], /required option '--to <build>' not specified/);
  flag('resume (no id)', ['resume'], /missing required argument 'workflowId'/);
  flag('bench run --id <seeded> --tasks trotter', ['bench', 'run', '--id', ctx.seededCampaign, '--tasks', 'trotter'], new RegExp(`--id ${ctx.seededCampaign}: campaign .* exists with another selection; drop the other flags to resume it`));
  flag('report <unknown id>', ['report', 'no-such-run'], /no report for no-such-run under .*: the workflow has not finished, or ran with another PHYSVEC_STATE_DIR/);
  flag('results export <unknown id>', ['results', 'export', 'no-such-campaign'], /no campaign no-such-campaign in the results store/);
  flag('bench report <unknown id>', ['bench', 'report', 'no-such-campaign'], /no campaign no-such-campaign in the results store/);

  // ---- cassettes of the scripted model ------------------------------------------------------------
  const cassette = JSON.parse(await readFile(path.join(repoRoot, 'data/cassettes/task_dmrg_tezuka_1a.json'), 'utf8'));
  const cassetteFile = async (name: string, value: unknown) => writeText(path.join(dir, 'cassettes', `${name}.json`), typeof value === 'string' ? value : JSON.stringify(value));
  const withModel = (input: string, model: string, first: RegExp, more: string[] = []) => add({ group: 'cassette', input, args: reproduce(TEZUKA, '--model', model, ...more), exit: 2, first });
  withModel('--model scripted:<unknown name>', 'scripted:no-such-cassette', /--model "scripted:no-such-cassette": cassette .*no-such-cassette\.json does not exist \(name a file in data\/cassettes, or export one/);
  withModel('--model scripted:<missing path>', `scripted:${path.join(dir, 'cassettes', 'missing.json')}`, /--model "scripted:.*missing\.json": cassette .* does not exist/);
  withModel('cassette is not JSON', `scripted:${await cassetteFile('notjson', '{"name": "x", "entries": [')}`, /--model "scripted:.*notjson\.json": cassette .* is not valid JSON/);
  withModel('cassette without entries', `scripted:${await cassetteFile('noentries', { name: 'x' })}`, /--model "scripted:.*noentries\.json": invalid cassette; .*entries/);
  withModel('cassette entry without an answer', `scripted:${await cassetteFile('noanswer', { name: 'x', entries: [{ role: 'author', stage: 'author', iteration: 0 }] })}`, /invalid cassette; .*entries\.0.*needs `text` or `json`/);
  withModel('cassette entry with a negative iteration', `scripted:${await cassetteFile('negiter', { name: 'x', entries: [{ role: 'author', stage: 'author', iteration: -1, text: 'hi' }] })}`, /invalid cassette; .*entries\.0\.iteration/);
  withModel('cassette with no coder entry', `scripted:${await cassetteFile('nocoder', { ...cassette, entries: cassette.entries.filter((e: any) => e.role !== 'coder') })}`, /cassette .*nocoder\.json has no entry for role "coder", stage "author", iteration 0 — the first call this run makes; add one, or export/);
  withModel('cassette with no entries at all', `scripted:${await cassetteFile('empty', { name: 'x', entries: [] })}`, /has no entry for role "author", stage "author", iteration 0/);
  withModel('--role-model author=scripted:<missing>', TEZUKA_MODEL, /--role-model author=… "scripted:no-such-cassette": cassette .* does not exist/, ['--role-model', 'author=scripted:no-such-cassette']);
  add({ group: 'cassette', input: 'bench run --models scripted:<no cassettes>', args: ['bench', 'run', '--tasks', 'dimer_pipeline', '--models', 'scripted:nowhere/{task}.t{trial}'], exit: 2, first: /bench run: the scripted model has no cassette for 1 run\(s\) — narrow the selection \(--tasks\)/ });
  add({ group: 'cassette', input: 'cassette export <unknown id>', args: ['cassette', 'export', 'no-such-run'], exit: 2, first: /no workflow no-such-run on the Temporal server/ });

  // ---- server states -------------------------------------------------------------------------------
  const down = { TEMPORAL_ADDRESS: `127.0.0.1:${ctx.closedPort}`, PHYSVEC_CONNECT_TIMEOUT_MS: '1500' };
  const unreachable = new RegExp(`cannot reach the Temporal server at 127\\.0\\.0\\.1:${ctx.closedPort} .*start one with \`physvec server start\`, or set TEMPORAL_ADDRESS`);
  const server = (input: string, args: string[], exit: number, first: RegExp, more: Partial<Case> = {}) => add({ group: 'server', input, args, exit, first, ...more });
  server('status <id>, no server', ['status', 'x'], 1, unreachable, { env: down });
  server('status <id> --json, no server', ['status', 'x', '--json'], 1, unreachable, { env: down, json: true });
  server('runs, no server', ['runs'], 1, unreachable, { env: down });
  server('reproduce <valid task>, no server', reproduce(TEZUKA, '--model', TEZUKA_MODEL), 1, unreachable, { env: down });
  server('bench run <valid>, no server', ['bench', 'run', '--tasks', 'dimer_pipeline', '--no-wait'], 1, unreachable, { env: down });
  server('bench status <id>, no server', ['bench', 'status', 'x'], 1, unreachable, { env: down });
  server('schedule list, no server', ['schedule', 'list'], 1, unreachable, { env: down });
  server('cassette export <id>, no server', ['cassette', 'export', 'x'], 1, unreachable, { env: down });
  server('stop <id>, no server', ['stop', 'x'], 1, unreachable, { env: down });
  server('approve <id>, no server', ['approve', 'x'], 1, unreachable, { env: down });
  server('stop <unknown id>', ['stop', 'no-such-run'], 2, /no workflow no-such-run on the Temporal server: check the id with `physvec runs`/);
  server('cancel <unknown id> --json', ['cancel', 'no-such-run', '--json'], 2, /no workflow no-such-run/, { json: true });
  server('approve <unknown id>', ['approve', 'no-such-run'], 2, /no workflow no-such-run on the Temporal server/);
  server('resume <unknown id>', ['resume', 'no-such-run'], 2, /no workflow no-such-run on the Temporal server/);
  server('upgrade <unknown id>', ['upgrade', 'no-such-run', '--to', 'b1'], 2, /no workflow no-such-run on the Temporal server/);
  server('status <unknown id>', ['status', 'no-such-run'], 2, /no workflow no-such-run on the Temporal server at .*: check the id with `physvec runs`/);
  server('status <unknown id> --json', ['status', 'no-such-run', '--json'], 2, /no workflow no-such-run/, { json: true });
  server('bench status <unknown id>', ['bench', 'status', 'no-such-campaign'], 2, /no campaign no-such-campaign: neither Temporal nor the results store/);
  server('bench run --id <unknown id>', ['bench', 'run', '--id', 'no-such-campaign'], 2, /--id no-such-campaign: no campaign no-such-campaign to reattach to or resume .*add --tasks/);
  server('bench retry <unknown id>', ['bench', 'retry', 'no-such-campaign'], 2, /no campaign no-such-campaign in the results store .*physvec results list/);
  server('schedule describe <unknown id>', ['schedule', 'describe', 'no-such-schedule'], 2, /no schedule no-such-schedule \(see `physvec schedule list`\)/);
  server('schedule pause <unknown id>', ['schedule', 'pause', 'no-such-schedule'], 2, /no schedule no-such-schedule/);
  server('schedule trigger <unknown id>', ['schedule', 'trigger', 'no-such-schedule'], 2, /no schedule no-such-schedule/);
  server('schedule delete <unknown id> --json', ['schedule', 'delete', 'no-such-schedule', '--json'], 2, /no schedule no-such-schedule/, { json: true });
  server('status <running>, no worker polling', ['status', ctx.unpolledWorkflow], 0, new RegExp(`^${ctx.unpolledWorkflow} \\(reproduction\\): RUNNING`), { from: 'stdout', mentions: /no worker polls the task queue .*start one with `physvec worker`/ });
  server('bench status <running>, no worker polling', ['bench', 'status', ctx.unpolledWorkflow], 0, new RegExp(`^campaign ${ctx.unpolledWorkflow}: workflow RUNNING`), { from: 'stdout', mentions: /no worker polls the task queue/ });
  return cases;
}

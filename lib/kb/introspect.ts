// Introspecting a toolchain through runners/kb/introspect.py: the argument lists, the output files and
// their parsing. How the script is run (sandbox or plain process) is injected: runners/kb/introspect-runners.ts.
import {
  IntrospectRecord,
  IntrospectVersions,
  type KbToolchain,
} from '../../schemas/kb.js';
import { introspectScript } from './paths.js';
import { INTROSPECT_LIMITS } from './sources.js';

export interface IntrospectRun {
  ok: boolean;
  /** Why it failed (exit code and stderr tail); '' when ok. */
  error: string;
  /** Contents of the requested output files that exist, by work-dir-relative name. */
  files: Record<string, string>;
}

/** Runs the introspection script with `args` in a fresh work dir and returns the named output files. */
export type IntrospectRunner = (args: string[], outputs: string[], timeoutMs: number) => Promise<IntrospectRun>;

/** A runner and what it is called in the manifest. */
export interface NamedIntrospectRunner {
  kind: 'sandbox' | 'execa';
  run: IntrospectRunner;
}

const VERSIONS_FILE = 'versions.json';
const RECORDS_FILE = 'records.jsonl';

/** Installed versions of the given distributions (null = not installed). */
export async function distributionVersions(dists: string[], runner: IntrospectRunner): Promise<Record<string, string | null>> {
  const r = await runner(['versions', '--out', VERSIONS_FILE, ...dists], [VERSIONS_FILE], 60_000);
  const text = r.files[VERSIONS_FILE];
  if (!r.ok || text === undefined) throw new Error(`reading package versions with ${introspectScript} failed: ${r.error}`);
  return IntrospectVersions.parse(JSON.parse(text));
}

export interface IntrospectOutcome {
  records: IntrospectRecord[];
  /** Lines that did not match the record schema (a script/schema mismatch, not a package problem). */
  badLines: number;
  error: string;
}

export async function introspectToolchain(
  toolchain: KbToolchain,
  packages: string[],
  runner: IntrospectRunner,
): Promise<IntrospectOutcome> {
  const args = [
    'symbols',
    '--out', RECORDS_FILE,
    '--toolchain', toolchain,
    ...packages.flatMap((p) => ['--package', p]),
    '--max-symbols', String(INTROSPECT_LIMITS.maxSymbols),
    '--max-doc-chars', String(INTROSPECT_LIMITS.maxDocChars),
    '--time-budget', String(INTROSPECT_LIMITS.timeBudgetSeconds),
  ];
  // The script stops walking at its own budget; the wall-clock limit only catches a hung import.
  const r = await runner(args, [RECORDS_FILE], (INTROSPECT_LIMITS.timeBudgetSeconds + 60) * 1000);
  const records: IntrospectRecord[] = [];
  let badLines = 0;
  for (const line of (r.files[RECORDS_FILE] ?? '').split('\n')) {
    if (!line.trim()) continue;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      badLines++;
      continue;
    }
    const parsed = IntrospectRecord.safeParse(json);
    if (parsed.success) records.push(parsed.data);
    else badLines++;
  }
  return { records, badLines, error: r.error };
}

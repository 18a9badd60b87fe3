// Opening the results store: one SQLite file `<stateDir>/results.sqlite` (better-sqlite3, synchronous
// and in-process). WAL lets the CLI read while a worker writes; busy_timeout lets several worker
// processes on one host share the file. Handles are cached per file path for the process.
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { stateDir } from '../paths.js';
import { MIGRATIONS, type Migration } from './migrations.js';

export type Db = Database.Database;

export function resultsDbPath(): string {
  return path.join(stateDir(), 'results.sqlite');
}

const open = new Map<string, Db>();

/** The store at `file` (default: the state directory's), created and migrated on first use. */
export function openResultsDb(file = resultsDbPath()): Db {
  const resolved = path.resolve(file);
  const cached = open.get(resolved);
  if (cached?.open) return cached;
  mkdirSync(path.dirname(resolved), { recursive: true });
  const db = new Database(resolved);
  db.pragma('journal_mode = WAL');
  db.pragma('busy_timeout = 5000');
  db.pragma('foreign_keys = ON');
  migrate(db, MIGRATIONS);
  open.set(resolved, db);
  return db;
}

/** True when the store file exists (readers such as `results list` must not create one). */
export function resultsDbExists(file = resultsDbPath()): boolean {
  return existsSync(file);
}

/** Apply the migrations not yet recorded, in version order; returns the versions applied now. */
export function migrate(db: Db, migrations: readonly Migration[]): number[] {
  db.exec('CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, description TEXT NOT NULL, applied_at TEXT NOT NULL)');
  const applied = new Set((db.prepare('SELECT version FROM schema_version').all() as { version: number }[]).map((r) => r.version));
  const done: number[] = [];
  // IMMEDIATE takes the write lock up front, so two processes opening a fresh store do not both migrate.
  const apply = db.transaction((m: Migration) => {
    const again = db.prepare('SELECT 1 FROM schema_version WHERE version = ?').get(m.version);
    if (again) return;
    db.exec(m.sql);
    db.prepare('INSERT INTO schema_version (version, description, applied_at) VALUES (?, ?, ?)').run(m.version, m.description, new Date().toISOString());
    done.push(m.version);
  });
  for (const m of [...migrations].sort((a, b) => a.version - b.version)) {
    if (!applied.has(m.version)) apply.immediate(m);
  }
  return done;
}

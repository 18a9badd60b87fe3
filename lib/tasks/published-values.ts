// The allow-list of the leak guard: values a paper digest may carry although a truth has them,
// because the article itself states them (a table, the text) — each with the place it is stated.
// A value we computed or read off a figure is not the article's statement and never belongs here.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { repoRoot } from '../paths.js';
import { parseNumber } from './truth.js';
import type { AllowedValue } from './truth-leak.js';

const PUBLISHED_VALUES_FILE = path.join(repoRoot, 'data/papers/published-values.json');

const PublishedValues = z.record(z.string(), z.array(z.object({ value: z.string(), source: z.string().min(1) }).strict()));

/** The allowed values of the digest `file` (by its base name), absolute; none for an unlisted file. */
export function publishedValues(file: string, listFile = PUBLISHED_VALUES_FILE): AllowedValue[] {
  const list = PublishedValues.parse(JSON.parse(readFileSync(listFile, 'utf8')));
  return (list[path.basename(file)] ?? []).map((v) => ({ value: Math.abs(parseNumber(v.value)), source: v.source }));
}

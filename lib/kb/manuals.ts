// Manuals users drop into a folder (ITensors docs, the ORCA manual, notes): found, fingerprinted,
// tagged with a toolchain by their folder or file name, and cut into sections.
import { createHash } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { KbToolchainInput, type KbToolchain } from '../../schemas/kb.js';
import type { ChunkDraft } from './chunk-symbols.js';
import { htmlToText } from './html-text.js';
import { packBlocks, splitSections, splitSummary } from './split-text.js';

const MANUAL_EXTENSIONS = new Set(['.md', '.markdown', '.txt', '.rst', '.html', '.htm']);
/** A manual bigger than this is cut off (an ORCA manual as HTML is a few MB; anything larger is likely not prose). */
const MAX_MANUAL_CHARS = 8_000_000;

export interface ManualFile {
  root: string;
  abs: string;
  /** Path relative to its folder, with '/' separators. */
  rel: string;
  toolchain: KbToolchain;
}

/** `orca/…`, `orca-manual.html`, `ITensors_notes.md` → orca / orca / itensors; anything else → general. */
export function toolchainOfManual(rel: string): KbToolchain {
  const segments = rel.split('/');
  const candidates = [
    ...segments.slice(0, -1),
    (segments.at(-1) ?? '').split(/[-_. ]/)[0] ?? '',
  ];
  for (const c of candidates) {
    const parsed = KbToolchainInput.safeParse(c);
    if (parsed.success) return parsed.data;
  }
  return 'general';
}

async function walk(dir: string): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  const out: string[] = [];
  for (const e of entries) {
    if (e.name.startsWith('.')) continue;
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...(await walk(p)));
    else if (e.isFile() && MANUAL_EXTENSIONS.has(path.extname(e.name).toLowerCase())) out.push(p);
  }
  return out;
}

export async function listManualFiles(dirs: string[]): Promise<ManualFile[]> {
  const files: ManualFile[] = [];
  for (const root of dirs) {
    for (const abs of (await walk(root)).sort()) {
      const rel = path.relative(root, abs).split(path.sep).join('/');
      if (rel.toLowerCase() === 'readme.md') continue; // the folder's own instructions, not documentation
      files.push({ root, abs, rel, toolchain: toolchainOfManual(rel) });
    }
  }
  return files;
}

/** Changes when any manual is added, removed, renamed or edited. */
export async function hashManuals(files: ManualFile[]): Promise<string> {
  const h = createHash('sha256');
  for (const f of files) {
    h.update(`${f.abs}\0${(await stat(f.abs)).size}\0`);
    h.update(createHash('sha256').update(await readFile(f.abs)).digest('hex'));
  }
  return h.digest('hex');
}

export async function manualText(file: ManualFile): Promise<string> {
  const raw = (await readFile(file.abs, 'utf8')).slice(0, MAX_MANUAL_CHARS);
  return /\.html?$/i.test(file.abs) ? htmlToText(raw) : raw;
}

export function chunkManualText(text: string, file: Pick<ManualFile, 'rel' | 'abs' | 'toolchain'>): ChunkDraft[] {
  const drafts: ChunkDraft[] = [];
  const title = path.basename(file.rel).replace(/\.[^.]+$/, '');
  for (const s of splitSections(text)) {
    const heading = s.heading || title;
    // As for docstrings: the first paragraph is the summary field, the body is what follows it.
    const { summary, rest } = splitSummary(s.text);
    const pieces = rest ? packBlocks([rest]) : [''];
    pieces.forEach((p, i) => {
      drafts.push({
        toolchain: file.toolchain,
        kind: 'manual',
        qualifiedName: `manual:${file.rel}#${heading}`,
        aliases: [],
        signature: '',
        summary,
        body: p,
        members: [],
        source: file.abs,
        section: heading,
        part: i,
        parts: pieces.length,
      });
    });
  }
  return drafts;
}

export async function chunkManuals(files: ManualFile[]): Promise<ChunkDraft[]> {
  const out: ChunkDraft[] = [];
  for (const f of files) out.push(...chunkManualText(await manualText(f), f));
  return out;
}

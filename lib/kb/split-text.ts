// Splitting long documentation into retrievable pieces of roughly 1-2 KB along its own structure:
// docstring sections (numpy "Parameters\n----------", Google "Args:", tenpy ".. cfg:config ::"),
// Markdown headings, then paragraphs, then lines. A piece that answers "what does chi_max do" should
// hold the Options section, not half of it glued to the Returns section.

export const TARGET_CHARS = 1600;
export const MAX_SINGLE_CHARS = 2000;

export interface Section {
  heading: string;
  text: string;
}

const UNDERLINE = /^\s*(-{3,}|={3,}|~{3,})\s*$/;
const GOOGLE_HEADING =
  /^\s*(Args|Arguments|Attributes|Parameters|Returns?|Raises|Yields|Examples?|Notes?|Kwargs|Keyword Args|Keyword Arguments|See Also|References|Warnings?|Options|Methods)\s*:\s*$/i;
const RST_CONFIG = /^\s*\.\.\s+cfg:config(?:options)?\s*::\s*(\S+)/;
const MD_HEADING = /^\s{0,3}(#{1,6})\s+(.+?)\s*#*\s*$/;

/** Splits documentation text into sections at the headings it recognises; text before the first heading has heading ''. */
export function splitSections(text: string): Section[] {
  const lines = text.split('\n');
  const sections: Section[] = [];
  let heading = '';
  let buf: string[] = [];
  const flush = () => {
    const body = buf.join('\n').trim();
    if (body || heading) sections.push({ heading, text: body });
    buf = [];
  };
  let inFence = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (/^\s*```/.test(line)) inFence = !inFence;
    if (inFence) {
      buf.push(line);
      continue;
    }
    const next = lines[i + 1];
    const md = MD_HEADING.exec(line);
    if (md) {
      flush();
      heading = md[2]!.trim();
      continue;
    }
    if (next !== undefined && line.trim() && !UNDERLINE.test(line) && UNDERLINE.test(next) && next.trim().length >= Math.min(3, line.trim().length)) {
      flush();
      heading = line.trim();
      i++;
      continue;
    }
    const google = GOOGLE_HEADING.exec(line);
    if (google) {
      flush();
      heading = google[1]!;
      continue;
    }
    const cfg = RST_CONFIG.exec(line);
    if (cfg) {
      flush();
      heading = `Options (${cfg[1]})`;
      buf.push(line);
      continue;
    }
    buf.push(line);
  }
  flush();
  return sections.filter((s) => s.text);
}

function hardSplit(text: string, max: number): string[] {
  const out: string[] = [];
  let cur = '';
  for (const line of text.split('\n')) {
    if (line.length > max) {
      if (cur) {
        out.push(cur);
        cur = '';
      }
      for (let i = 0; i < line.length; i += max) out.push(line.slice(i, i + max));
      continue;
    }
    if (cur && cur.length + line.length + 1 > max) {
      out.push(cur);
      cur = '';
    }
    cur = cur ? `${cur}\n${line}` : line;
  }
  if (cur) out.push(cur);
  return out;
}

/** Packs blocks (joined by blank lines) into pieces of at most `max` characters, splitting oversize blocks. */
export function packBlocks(blocks: string[], max = TARGET_CHARS): string[] {
  const out: string[] = [];
  let cur = '';
  for (const block of blocks) {
    const pieces = block.length > max ? splitParagraphs(block, max) : [block];
    for (const piece of pieces) {
      if (cur && cur.length + piece.length + 2 > max) {
        out.push(cur);
        cur = '';
      }
      cur = cur ? `${cur}\n\n${piece}` : piece;
    }
  }
  if (cur) out.push(cur);
  return out;
}

function splitParagraphs(text: string, max: number): string[] {
  const paras = text.split(/\n\s*\n/).map((p) => p.trim()).filter(Boolean);
  if (paras.length <= 1) return hardSplit(text, max);
  return packBlocks(paras, max);
}

export interface Piece {
  section: string;
  text: string;
}

/**
 * Cuts a document into pieces: whole if short, else section by section (small neighbouring sections
 * share a piece, the piece named after its first section), oversize sections by paragraphs.
 */
export function splitDocument(text: string, target = TARGET_CHARS, maxSingle = MAX_SINGLE_CHARS): Piece[] {
  const trimmed = text.trim();
  if (!trimmed) return [];
  if (trimmed.length <= maxSingle) return [{ section: '', text: trimmed }];
  const pieces: Piece[] = [];
  let cur: Piece | undefined;
  for (const s of splitSections(trimmed)) {
    const block = s.heading ? `${s.heading}\n${s.text}` : s.text;
    if (block.length > target) {
      if (cur) {
        pieces.push(cur);
        cur = undefined;
      }
      for (const p of packBlocks([s.text], target)) pieces.push({ section: s.heading, text: s.heading ? `${s.heading}\n${p}` : p });
      continue;
    }
    if (cur && cur.text.length + block.length + 2 > target) {
      pieces.push(cur);
      cur = undefined;
    }
    cur = cur ? { section: cur.section, text: `${cur.text}\n\n${block}` } : { section: s.heading, text: block };
  }
  if (cur) pieces.push(cur);
  return pieces;
}

/** The first paragraph, capped: what a hit shows before its body. */
export function firstParagraph(text: string, max = 300): string {
  const para = text.trim().split(/\n\s*\n/)[0] ?? '';
  const flat = para.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : flat.slice(0, max - 1).trimEnd() + '…';
}

/**
 * The summary (first paragraph) and the rest. A first paragraph too long to be a summary stays in the
 * rest as well, so no text is lost to the summary's cap.
 */
export function splitSummary(text: string, max = 300): { summary: string; rest: string } {
  const trimmed = text.trim();
  const first = trimmed.split(/\n\s*\n/)[0] ?? '';
  const summary = firstParagraph(first, max);
  const whole = first.replace(/\s+/g, ' ').trim().length <= max;
  return { summary, rest: whole ? trimmed.slice(first.length).trim() : trimmed };
}

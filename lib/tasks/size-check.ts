// What a `--size full` run actually ran: whether the final script uses each full-size parameter the
// request asked for. Read from the script's text (a number literal equal to the full value, e.g.
// `L = 200`); a script that only has the scaled value (`L = 12`) ran the scaled system, and says so.

export interface SizeFinding {
  name: string;
  full: unknown;
  used: unknown;
  /** The full value appears in the script; the scaled one does. */
  fullSeen: boolean;
  scaledSeen: boolean;
}

function numberLiteral(value: number): RegExp {
  const text = String(value).replace(/[.+]/g, (c) => `\\${c}`);
  // 200, 200.0, 2e2 are not all found; the literal as the task writes it (and with a trailing .0) is.
  return new RegExp(`(?<![\\w.])${text}(?:\\.0*)?(?![\\w.])`);
}

function appears(script: string, value: unknown): boolean {
  if (typeof value === 'number') return numberLiteral(value).test(script);
  if (typeof value === 'string') return script.includes(value);
  if (Array.isArray(value) && value.length > 0) return value.every((v) => appears(script, v));
  return false;
}

export function checkFullSize(script: string, parameters: { name: string; full: unknown; used: unknown }[]): { findings: SizeFinding[]; warning?: string } {
  const findings = parameters.map((p) => ({ ...p, fullSeen: appears(script, p.full), scaledSeen: appears(script, p.used) }));
  const missing = findings.filter((f) => !f.fullSeen);
  if (missing.length === 0) return { findings };
  const list = missing.map((f) => `${f.name} = ${JSON.stringify(f.full)}${f.scaledSeen ? ` (it has the scaled ${JSON.stringify(f.used)})` : ''}`).join(', ');
  return { findings, warning: `Full-size run, but the final script never uses the full-size ${list}: what ran may be the scaled system.` };
}

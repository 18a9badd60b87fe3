// Tracebacks as frames (file, line, function), innermost last, for Python and Julia alike: the
// verdicts of the Programming verifier are read from where a failure happened, not from its text.
export interface TraceFrame {
  file: string;
  /** 1-based line in `file`. */
  line: number;
  /** The function the frame is in (`<module>` / `top-level scope` for module code). */
  fn: string;
}

const PY_FRAME = /^\s*File "([^"]+)", line (\d+)(?:, in (.+?))?\s*$/;
// Julia ≥ 1.6:  " [3] hamiltonian_x(L::Int64)"  then  "   @ Main /tmp/x.jl:12"
const JL_FRAME = /^\s*\[(\d+)\]\s+(.+?)\s*$/;
const JL_WHERE = /^\s*@\s+(?:\S+\s+)?(.+?):(\d+)\s*$/;
// Older Julia: " [3] hamiltonian_x(L::Int64) at /tmp/x.jl:12"
const JL_INLINE = /^\s*\[(\d+)\]\s+(.+?)\s+at\s+(.+?):(\d+)\s*$/;

function julianName(call: string): string {
  // "Main.effector_x(h::Matrix)" / "#effector_x#3(...)" / "top-level scope" → the function's name.
  if (/^top-level scope/.test(call)) return '<module>';
  const head = call.replace(/\(.*$/, '').replace(/^#+|#\d+$/g, '').replace(/#.*$/, '');
  return head.split('.').pop() || head;
}

/** The frames of the last traceback in `stderr`, innermost last. */
export function tracebackFrames(stderr: string): TraceFrame[] {
  const lines = stderr.split('\n');
  const lastPython = lines.map((l, i) => (/^Traceback \(most recent call last\):/.test(l) ? i : -1)).filter((i) => i >= 0).pop();
  const python: TraceFrame[] = [];
  for (const l of lines.slice(lastPython ?? 0)) {
    const m = PY_FRAME.exec(l);
    if (m) python.push({ file: m[1]!, line: Number(m[2]), fn: m[3] ?? '<module>' });
  }
  if (python.length) return python;
  // Julia prints innermost first.
  const julia: TraceFrame[] = [];
  for (let i = 0; i < lines.length; i++) {
    const inline = JL_INLINE.exec(lines[i]!);
    if (inline) {
      julia.push({ file: inline[3]!, line: Number(inline[4]), fn: julianName(inline[2]!) });
      continue;
    }
    const f = JL_FRAME.exec(lines[i]!);
    const w = f ? JL_WHERE.exec(lines[i + 1] ?? '') : null;
    if (f && w) julia.push({ file: w[1]!, line: Number(w[2]), fn: julianName(f[2]!) });
  }
  return julia.reverse();
}

/** Frames in the given script file (the harness or level that ran), by base name. */
export function framesIn(frames: TraceFrame[], fileName: string): TraceFrame[] {
  return frames.filter((f) => f.file.split(/[\\/]/).pop() === fileName);
}

/**
 * A traceback as a test writer is shown it: file paths cut to their base names (the sandbox's
 * directories tell the writer nothing), the warm runtime's own frame (zygote.py) and the module-level
 * frame that only calls main (the writer's own entry call: it locates nothing) left out.
 */
export function tracebackForWriter(traceback: string): string {
  return traceback
    .replace(/^ {2}File "[^"]*zygote\.py", line \d+, in \w+\n/gm, '')
    .replace(/^ {2}File "[^"]*", line \d+, in <module>\n {4}main\(\)\n(?: {4}\^+\n)?/gm, '')
    .replace(/File "(?:[^"]*[\\/])?([^"\\/]+)"/g, 'File "$1"');
}

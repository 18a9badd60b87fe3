// Call recording (runners/runtime/python/physvec_runtime/calls.py): one line put before a Python
// script's entry-point call wraps the script's own functions so each call's arguments and return
// value are recorded, in summary, to CALLS_FILE. The line takes the place of the blank line above
// the entry point when there is one, so every other line keeps its number (tracebacks and the
// variant's line spans stay those of the script). Without the runtime on the path (a variant run by
// hand) the line does nothing.
import type { ScriptStructure } from '../../schemas/script-structure.js';
import { CALLS_FILE } from '../../schemas/script-markers.js';


/** The recording line for `names` (Python); a guard keeps it silent where physvec_runtime is absent. */
function recordingLine(names: string[]): string {
  const list = JSON.stringify(names);
  return `__import__("importlib.util").util.find_spec("physvec_runtime") and __import__("physvec_runtime.calls").calls.record(globals(), ${list})  # physvec: records these functions' calls (${CALLS_FILE})`;
}

/**
 * `structure`'s source with the recording line before its entry-point call, recording `names`.
 * Unchanged for Julia, for a script without an entry-point call, or with nothing to record.
 */
export function withCallRecording(structure: ScriptStructure, names: string[]): string {
  const { source, entryPointCall } = structure;
  if (structure.language !== 'python' || !entryPointCall || names.length === 0) return source;
  const at = entryPointCall.span.startOffset;
  const lineStart = source.lastIndexOf('\n', at - 1) + 1;
  const prevStart = lineStart > 0 ? source.lastIndexOf('\n', lineStart - 2) + 1 : -1;
  const line = recordingLine(names);
  // The entry-point call is at module level: the line before it, when blank, can hold the recording line.
  if (prevStart >= 0 && source.slice(prevStart, lineStart - 1).trim() === '') return `${source.slice(0, prevStart)}${line}\n${source.slice(lineStart)}`;
  return `${source.slice(0, lineStart)}${line}\n${source.slice(lineStart)}`;
}

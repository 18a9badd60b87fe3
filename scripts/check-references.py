#!/usr/bin/env python3
"""Interim checker of the task suite: every reference must pass its own checks, every mutant must be caught.

For each task in data/tasks/<topic>/<task_id>.json with a reference in data/references/<task_id>/:
  * runs the reference solution as is (it must exit 0, write figure.png and print PHYSVEC_RESULT lines);
  * builds each assertion variant (the solution with its top-level `def main` replaced by
    limiting/<k>.main.py or scientific/<k>.main.py), runs it and compares the last PHYSVEC_RESULT
    with the number(s) and tolerance parsed from the case's truth sentence;
  * runs each convergence case: convergence/<k>.main.py with PHYSVEC_PARAM escalated along
    convergence/<k>.schedule.json until two successive values agree within the case's criterion; when the
    schedule names a `monitor`, the reference's own main must print that quantity within the same
    tolerance of the converged value (the script's own setting is converged);
  * runs each mutant (solution.py with the edits of mutants/<name>.json) through the check named in `caughtBy` and
    confirms that it is caught there (programming: the script crashes and the traceback names the faulty
    function; assertion:<k> / scientific:<k>: the variant runs but misses the truth; convergence: the
    mutant's own setting is not converged), and that the mutant differs from the solution only in
    `faultyFunction`.
With --demo it also assembles the demo's unit harnesses and integration levels (data/references/<id>/demo;
the demo's Author scripts are solution.py with the faults of demo/faults.json put in by their edits).

Usage: .venv/bin/python scripts/check-references.py [task_id ...] [--topic T] [--no-mutants]
       [--no-convergence] [--demo | --demo-only] [--jobs N] [--tasks N] [--timeout S] [--json FILE] [-v]
Exit code 0 when everything is as expected, 1 otherwise.
"""
from __future__ import annotations

import argparse
import ast
import json
import math
import os
import re
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TASKS = ROOT / "data" / "tasks"
REFS = ROOT / "data" / "references"
VENV_PY = ROOT / ".venv" / "bin" / "python"
RESULT_PREFIX = "PHYSVEC_RESULT "
ELEMENT_PREFIXES = ("site_", "lattice_", "hamiltonian_", "initialstate_", "effector_", "observable_", "item_", "plot_")

NUMBER = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"


# ---------------------------------------------------------------- truths and results


@dataclass
class Truth:
    values: list[float]
    kind: str  # "relative" | "absolute"
    tol: float


def _clean(text: str) -> str:
    return text.replace("\u2212", "-").replace("\r", " ")


def parse_tolerance(text: str) -> tuple[str, float] | None:
    m = re.search(r"(relative|absolute)\s+error\s+tolerance\s+(?:is|of)?\s*(?:\+/-|\+-|±)?\s*(" + NUMBER + ")", _clean(text), re.I)
    if not m:
        return None
    return m.group(1).lower(), abs(float(m.group(2)))


def parse_truth(text: str) -> Truth | None:
    """Number(s) and tolerance of a truth sentence; None for a qualitative truth."""
    text = _clean(text)
    tol = parse_tolerance(text)
    if tol is None:
        return None
    m = re.search(r"(relative|absolute)\s+error\s+tolerance", text, re.I)
    head = text[: m.start()]
    # The value is stated after the last " is " / " are " of the part before the tolerance clause.
    cut = max(head.rfind(" is "), head.rfind(" are "), head.rfind(" equals "))
    if cut < 0:
        return None
    body = head[cut:]
    values = [float(x) for x in re.findall(NUMBER, body)]
    if not values:
        return None
    return Truth(values, tol[0], tol[1])


def results_of(stdout: str) -> list:
    out = []
    for line in stdout.splitlines():
        if line.startswith(RESULT_PREFIX):
            try:
                out.append(json.loads(line[len(RESULT_PREFIX):]))
            except json.JSONDecodeError:
                pass
    return out


def value_of(result) -> list[float] | None:
    v = result.get("value") if isinstance(result, dict) else result
    if isinstance(v, bool) or v is None:
        return None
    if isinstance(v, (int, float)):
        return [float(v)]
    if isinstance(v, list) and all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in v):
        return [float(x) for x in v]
    return None


def pick_result(stdout: str, name: str | None = None) -> list[float] | None:
    results = results_of(stdout)
    if name is not None:
        named = [r for r in results if isinstance(r, dict) and r.get("name") == name]
        if named:
            return value_of(named[-1])
        return None
    return value_of(results[-1]) if results else None


def within(x: float, t: float, kind: str, tol: float) -> bool:
    if not (math.isfinite(x) and math.isfinite(t)):
        return False
    return abs(x - t) <= (tol * abs(t) if kind == "relative" else tol) + 1e-12


def compare(got: list[float] | None, truth: Truth) -> tuple[bool, str]:
    if got is None:
        return False, "no PHYSVEC_RESULT"
    want = truth.values
    if len(want) == 1 and len(got) >= 1:
        pairs = [(g, want[0]) for g in got]
    elif len(want) == len(got):
        pairs = list(zip(got, want))
    else:
        return False, f"got {len(got)} numbers, truth has {len(want)}"
    ok = all(within(g, t, truth.kind, truth.tol) for g, t in pairs)
    return ok, f"got {fmt(got)} vs {fmt(want)} ({truth.kind} tol {truth.tol:g})"


def fmt(v: list[float] | None) -> str:
    if v is None:
        return "None"
    s = ", ".join(f"{x:.6g}" for x in v[:6]) + (", …" if len(v) > 6 else "")
    return s if len(v) == 1 else f"[{s}]"


# ---------------------------------------------------------------- script surgery


def replace_main(source: str, new_main: str) -> str:
    """The script with its whole top-level `def main(...)` block replaced by `new_main`."""
    tree = ast.parse(source)
    lines = source.splitlines(keepends=True)
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == "main":
            start = (node.decorator_list[0].lineno if node.decorator_list else node.lineno) - 1
            end = node.end_lineno
            return "".join(lines[:start]) + new_main.rstrip() + "\n" + "".join(lines[end:])
    raise ValueError("the script has no top-level def main")


def top_level_functions(source: str) -> dict[str, str]:
    tree = ast.parse(source)
    return {n.name: ast.get_source_segment(source, n) or "" for n in tree.body if isinstance(n, ast.FunctionDef)}


def import_block(source: str) -> str:
    tree = ast.parse(source)
    return "\n".join(ast.get_source_segment(source, n) for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom)))


# ---------------------------------------------------------------- running


@dataclass
class Run:
    rc: int
    stdout: str
    stderr: str
    seconds: float
    files: list[str] = field(default_factory=list)


def run_script(source: str, timeout: float, env_extra: dict | None = None) -> Run:
    with tempfile.TemporaryDirectory(prefix="physvec-check-") as work:
        path = Path(work) / "script.py"
        path.write_text(source)
        env = {k: v for k, v in os.environ.items() if not k.startswith("PHYSVEC_")}
        env.update({"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
                    "MPLBACKEND": "Agg", "JAX_PLATFORMS": "cpu", "PYTHONUNBUFFERED": "1",
                    "XLA_FLAGS": "--xla_force_host_platform_device_count=1",
                    # physvec_runtime (progress, checkpoints), importable as in the sandbox.
                    "PYTHONPATH": str(ROOT / "runners" / "runtime" / "python")})
        env.update(env_extra or {})
        t0 = time.time()
        try:
            p = subprocess.run([str(VENV_PY), str(path)], cwd=work, env=env, capture_output=True, text=True, timeout=timeout)
            rc, out, err = p.returncode, p.stdout, p.stderr
        except subprocess.TimeoutExpired as e:
            rc, out, err = -9, (e.stdout or b"").decode() if isinstance(e.stdout, bytes) else (e.stdout or ""), f"timeout after {timeout} s"
        return Run(rc, out, err, time.time() - t0, sorted(os.listdir(work)))


def tail(text: str, n: int = 3) -> str:
    lines = [l for l in text.strip().splitlines() if l.strip()]
    return " | ".join(lines[-n:])[-400:]


# ---------------------------------------------------------------- per-task checks


@dataclass
class Line:
    kind: str
    name: str
    ok: bool
    detail: str
    seconds: float = 0.0


@dataclass
class Report:
    task_id: str
    topic: str
    lines: list[Line] = field(default_factory=list)
    assertions: tuple[int, int] = (0, 0)
    convergence: str = "-"
    mutants: tuple[int, int] = (0, 0)
    wall: float = 0.0

    @property
    def ok(self) -> bool:
        return all(l.ok for l in self.lines)


def convergence_params(schedule: dict) -> list:
    start, top = schedule["start"], schedule["max"]
    vals, v = [], start
    is_int = all(isinstance(schedule.get(k, 1), int) for k in ("start", "factor", "step", "max"))
    while v <= top + 1e-12 and len(vals) < 50:
        vals.append(int(round(v)) if is_int else v)
        v = v * schedule["factor"] if "factor" in schedule else v + schedule["step"]
    return vals


def run_convergence(solution: str, main_src: str, schedule: dict, criteria: str, timeout: float, verbose: bool):
    """Escalates PHYSVEC_PARAM until two successive values agree; returns (converged, value, x, trail, seconds)."""
    tol = parse_tolerance(criteria) or ("absolute", 1e-3)
    variant = replace_main(solution, main_src)
    prev, trail, secs = None, [], 0.0
    for p in convergence_params(schedule):
        r = run_script(variant, timeout, {"PHYSVEC_PARAM": str(p)})
        secs += r.seconds
        x = pick_result(r.stdout)
        if r.rc != 0 or x is None:
            trail.append(f"{p}: failed ({tail(r.stderr, 1)})")
            return False, p, None, trail, secs, tol
        trail.append(f"{p}: {fmt(x)}")
        if verbose:
            print(f"    convergence {p} -> {fmt(x)}", flush=True)
        if prev is not None and len(prev) == len(x) and all(within(a, b, tol[0], tol[1]) for a, b in zip(x, prev)):
            return True, p, x, trail, secs, tol
        prev = x
    return False, None, prev, trail, secs, tol


def rubric_norm(task: dict) -> Line:
    """NormCheck of the task's rubric in rubrics/: effective leaf weights (products along the path) sum to 1."""
    path = ROOT / "rubrics" / task.get("rubrics_name", "")
    if not path.is_file():
        return Line("rubric", "norm", False, f"missing {path.relative_to(ROOT)}")

    def leaves(node, w):
        w *= float(node.get("weight", 1))
        kids = node.get("children")
        return [w] if isinstance(kids, dict) else [x for c in kids or [] for x in leaves(c, w)]

    tree = json.loads(path.read_text(encoding="utf-8-sig"))
    total = sum(leaves(tree, 1.0))
    sections = len(tree.get("children", []))
    return Line("rubric", "norm", abs(total - 1) <= 1e-4 and sections == 4, f"sum of effective leaf weights {total:.6f}, {sections} sections")


def check_task(task_file: Path, args) -> Report:
    t_start = time.time()
    task = json.loads(task_file.read_text(encoding="utf-8-sig"))
    tid = task.get("id", task_file.stem)
    rep = Report(tid, task.get("topic", task_file.parent.name))
    ref_dir = REFS / tid
    sol_path = ref_dir / "solution.py"
    if not sol_path.exists():
        rep.lines.append(Line("reference", "solution.py", False, "missing"))
        return rep
    solution = sol_path.read_text()
    rep.lines.append(rubric_norm(task))
    say = (lambda *a: print(f"  [{tid}]", *a, flush=True)) if args.verbose else (lambda *a: None)

    if args.demo_only:
        if (ref_dir / "demo").exists():
            for line in check_demo(ref_dir / "demo", args):
                rep.lines.append(line)
                say("demo", line.name, "ok" if line.ok else "FAIL", line.detail)
        rep.wall = time.time() - t_start
        return rep

    def main_job():
        r = run_script(solution, args.timeout)
        ok = r.rc == 0 and bool(results_of(r.stdout)) and "figure.png" in r.files
        detail = f"rc={r.rc}, figure={'figure.png' in r.files}, {len(results_of(r.stdout))} results" + ("" if r.rc == 0 else f": {tail(r.stderr)}")
        return Line("reference", "main", ok, detail, r.seconds), r

    def assertion_job(kind: str, k: int, case: dict):
        sub = "limiting" if kind == "limiting" else "scientific"
        main_path = ref_dir / sub / f"{k}.main.py"
        truth = parse_truth(case["truth"])
        if not main_path.exists():
            return Line(sub, str(k), False, "variant main missing")
        if truth is None:
            return Line(sub, str(k), False, f"qualitative truth, not checkable here: {case['truth'][:60]}")
        r = run_script(replace_main(solution, main_path.read_text()), args.timeout)
        if r.rc != 0:
            return Line(sub, str(k), False, f"crashed: {tail(r.stderr)}", r.seconds)
        ok, detail = compare(pick_result(r.stdout), truth)
        return Line(sub, str(k), ok, detail, r.seconds)

    def convergence_job(k: int, case: dict):
        mp, sp = ref_dir / "convergence" / f"{k}.main.py", ref_dir / "convergence" / f"{k}.schedule.json"
        if not (mp.exists() and sp.exists()):
            return k, None, Line("convergence", str(k), False, "variant main or schedule missing")
        schedule = json.loads(sp.read_text())
        ok, at, x, trail, secs, tol = run_convergence(solution, mp.read_text(), schedule, case["criteria"], args.timeout, args.verbose)
        line = Line("convergence", str(k), ok, f"{'reached at ' + str(at) if ok else 'NOT reached'}; " + "; ".join(trail), secs)
        return k, (ok, at, x, tol, schedule), line

    cases = [("limiting", k, c) for k, c in enumerate(task.get("LimitingCases", []))]
    cases += [("scientific", k, c) for k, c in enumerate(task.get("ScientificResults", []))]
    mutant_files = sorted((ref_dir / "mutants").glob("*.json")) if (ref_dir / "mutants").exists() and not args.no_mutants else []
    needs_convergence = [m for m in mutant_files if json.loads(m.read_text()).get("caughtBy") == "convergence"]
    # Everything that does not depend on another run goes into one pool at once.
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        fut_main = pool.submit(main_job)
        futs = [pool.submit(assertion_job, kind, k, c) for kind, k, c in cases]
        conv_futs = [] if args.no_convergence else [pool.submit(convergence_job, k, c) for k, c in enumerate(task.get("ConvergenceCases", []))]
        mut_futs = [pool.submit(check_mutant, m, solution, task, ref_dir, {}, None, args) for m in mutant_files if m not in needs_convergence]
        main_line, main_run = fut_main.result()
        rep.lines.append(main_line)
        say("main", "ok" if main_line.ok else "FAIL", main_line.detail, f"{main_line.seconds:.1f}s")
        for f in futs:
            line = f.result()
            rep.lines.append(line)
            say(line.kind, line.name, "ok" if line.ok else "FAIL", line.detail, f"{line.seconds:.1f}s")
        n_ok = sum(1 for l in rep.lines if l.kind in ("limiting", "scientific") and l.ok)
        rep.assertions = (n_ok, len(cases))

        converged_values: dict[int, tuple] = {}
        conv_states = []
        for f in conv_futs:
            k, res, line = f.result()
            rep.lines.append(line)
            say("convergence", k, line.detail[:60], f"{line.seconds:.1f}s")
            if res is None:
                conv_states.append("missing")
                continue
            ok, at, x, tol, schedule = res
            converged_values[k] = (x, tol, schedule)
            state = f"yes@{at}" if ok else "no"
            monitor = schedule.get("monitor")
            if ok and monitor:
                own = pick_result(main_run.stdout, monitor) if main_run else None
                good = own is not None and len(own) == len(x) and all(within(a, b, tol[0], tol[1]) for a, b in zip(own, x))
                rep.lines.append(Line("convergence", f"{k}:own-setting", good, f"main's {monitor} {fmt(own)} vs converged {fmt(x)}"))
                state += "" if good else " (own setting not converged)"
            conv_states.append(state)
        rep.convergence = ", ".join(conv_states) if conv_states else "-"

        mut_futs += [pool.submit(check_mutant, m, solution, task, ref_dir, converged_values, main_run, args) for m in needs_convergence]
        caught = 0
        for f in mut_futs:
            line = f.result()
            rep.lines.append(line)
            caught += line.ok
            say("mutant", line.name, "caught" if line.ok else "NOT CAUGHT", line.detail, f"{line.seconds:.1f}s")
        rep.mutants = (caught, len(mut_futs))

    if args.demo and (ref_dir / "demo").exists():
        for line in check_demo(ref_dir / "demo", args):
            rep.lines.append(line)
            say("demo", line.name, "ok" if line.ok else "FAIL", line.detail)

    rep.wall = time.time() - t_start
    return rep


def apply_edits(text: str, edits: list, where: str) -> str:
    """The text with each {old, new} edit put in, in order; an `old` that is not there exactly once is an error."""
    if not edits:
        raise ValueError(f"{where}: no edits")
    for i, e in enumerate(edits):
        n = text.count(e["old"])
        if n != 1:
            raise ValueError(f"{where}.{i}.old occurs {n} times in the solution (it must occur exactly once)")
        text = text.replace(e["old"], e["new"])
    return text


def check_mutant(mj: Path, solution: str, task: dict, ref_dir: Path, converged: dict, main_run, args) -> Line:
    meta = json.loads(mj.read_text())
    name = mj.stem
    try:
        mutant = apply_edits(solution, meta.get("edits") or [], f"{mj}: edits")
    except ValueError as e:
        return Line("mutant", name, False, str(e))
    faulty = meta["faultyFunction"]
    sol_fns, mut_fns = top_level_functions(solution), top_level_functions(mutant)
    differing = sorted(n for n in set(sol_fns) | set(mut_fns) if sol_fns.get(n) != mut_fns.get(n))
    if differing != [faulty]:
        return Line("mutant", name, False, f"differs from the solution in {differing}, declared faultyFunction {faulty!r}")
    how = meta["caughtBy"]
    stage = meta["expectedStage"]
    if stage == "programming":
        r = run_script(mutant, args.timeout)
        names_it = f'in {faulty}\n' in r.stderr or f"in {faulty}" in r.stderr
        ok = r.rc != 0 and names_it
        return Line("mutant", name, ok, f"{how}: rc={r.rc}, traceback names {faulty}: {names_it}; {tail(r.stderr, 1)}", r.seconds)
    m = re.fullmatch(r"(assertion|scientific):(\d+)", how)
    if m:
        k = int(m.group(2))
        sub, key = ("limiting", "LimitingCases") if m.group(1) == "assertion" else ("scientific", "ScientificResults")
        truth = parse_truth(task[key][k]["truth"])
        r = run_script(replace_main(mutant, (ref_dir / sub / f"{k}.main.py").read_text()), args.timeout)
        if r.rc != 0:
            return Line("mutant", name, False, f"{how}: crashed instead of failing the assertion: {tail(r.stderr, 1)}", r.seconds)
        passed, detail = compare(pick_result(r.stdout), truth)
        return Line("mutant", name, not passed, f"{how}: {detail}", r.seconds)
    if how == "convergence":
        k = int(meta.get("convergenceCase", 0))
        if k not in converged or converged[k][0] is None:
            return Line("mutant", name, False, "convergence: the reference's convergence run is not available (use without --no-convergence)")
        x, tol, schedule = converged[k]
        monitor = schedule.get("monitor")
        r = run_script(mutant, args.timeout)
        own = pick_result(r.stdout, monitor) if monitor else None
        if r.rc != 0 or own is None:
            return Line("mutant", name, False, f"convergence: mutant main did not print {monitor}: {tail(r.stderr, 1)}", r.seconds)
        same = len(own) == len(x) and all(within(a, b, tol[0], tol[1]) for a, b in zip(own, x))
        return Line("mutant", name, not same, f"convergence: own {monitor} {fmt(own)} vs converged {fmt(x)}", r.seconds)
    return Line("mutant", name, False, f"caughtBy {how!r} is not checkable by this script")


# ---------------------------------------------------------------- demo (programming-verifier fixtures)


def element_call_statements(fn: ast.FunctionDef, element_names: set[str]) -> list[tuple[int, str]]:
    """(index in fn.body, element function name) for each body statement that calls an element function."""
    out = []
    for i, stmt in enumerate(fn.body):
        for node in ast.walk(stmt):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in element_names:
                out.append((i, node.func.id))
    return out


def integration_levels(source: str) -> list[tuple[str, int, str, str]]:
    """(run function, level k, newly entering function, script) — level k stops after the k-th element call."""
    tree = ast.parse(source)
    lines = source.splitlines(keepends=True)
    elements = {n.name for n in tree.body if isinstance(n, ast.FunctionDef) and n.name.startswith(ELEMENT_PREFIXES)}
    levels = []
    for fn in tree.body:
        if not (isinstance(fn, ast.FunctionDef) and fn.name.startswith("run_")):
            continue
        calls = element_call_statements(fn, elements)
        for k, (idx, callee) in enumerate(calls, start=1):
            stmt = fn.body[idx]
            indent = " " * stmt.col_offset
            stop = f"{indent}print('PHYSVEC_LEVEL_OK {fn.name} {k}'); raise SystemExit(0)\n"
            script = "".join(lines[: stmt.end_lineno]) + stop + "".join(lines[stmt.end_lineno:])
            levels.append((fn.name, k, callee, script))
    return levels


def unit_harness(script: str, background: str, function: str, entry: str) -> str:
    fns = top_level_functions(script)
    return "\n\n".join([import_block(script), background, fns[function], entry.rstrip(), 'if __name__ == "__main__":\n    main()\n'])


def check_demo(demo: Path, args) -> list[Line]:
    faults = json.loads((demo / "faults.json").read_text())
    fault_a = next(f for f in faults["faults"] if f["id"] == "a")
    fault_b = next(f for f in faults["faults"] if f["id"] == "b")
    # The unit harnesses' background functions come from the verifier library, as in the programming verifier.
    library = ROOT / "data" / "verifier-library" / "tenpy"
    background = "\n\n".join((library / f"{name}.py").read_text() for name in faults["background"])
    out = []
    solution = (demo.parent / "solution.py").read_text()

    def with_faults(ids):
        return apply_edits(solution, [e for f in faults["faults"] if f["id"] in ids for e in f["edits"]], f"{demo / 'faults.json'}: edits")

    for stage_file, expect_a, expect_b in [("author_v0", True, True), ("after_programming_repair", False, False)]:
        script = with_faults("abc" if expect_a else "c")
        elements = [n for n in top_level_functions(script) if n.startswith(ELEMENT_PREFIXES)]
        missing = [fn for fn in elements if not (demo / "unit" / f"{fn}.entry.py").exists()]
        out += [Line("demo", f"{stage_file}:unit:{fn}", False, "entry missing") for fn in missing]
        present = [fn for fn in elements if fn not in missing]
        with ThreadPoolExecutor(max_workers=args.jobs) as pool:
            # B023 does not apply: list() makes every call within this iteration, while `script` is this iteration's.
            runs = list(pool.map(lambda fn: run_script(unit_harness(script, background, fn, (demo / "unit" / f"{fn}.entry.py").read_text()), args.timeout), present))  # noqa: B023
        failing = [fn for fn, r in zip(present, runs) if r.rc != 0]
        want = [fault_a["function"]] if expect_a else []
        out.append(Line("demo", f"{stage_file}:unit", failing == want, f"failing unit harnesses {failing}, expected {want}"))
        first_fail = None
        for run_fn, k, callee, lvl in integration_levels(script):
            r = run_script(lvl, args.timeout)
            if r.rc != 0 or "PHYSVEC_LEVEL_OK" not in r.stdout:
                first_fail = (run_fn, k, callee)
                break
        want_b = fault_b["enters_at"] if expect_b else None
        got_b = first_fail[2] if first_fail else None
        out.append(Line("demo", f"{stage_file}:integration", got_b == want_b, f"first failing level {first_fail}, expected the level where {want_b} enters"))
        r = run_script(script, args.timeout)
        out.append(Line("demo", f"{stage_file}:runs", (r.rc == 0) == (not expect_a and not expect_b), f"rc={r.rc}"))
    fault_c = next(f for f in faults["faults"] if f["id"] == "c")
    k = int(fault_c["caughtBy"].split(":")[1])
    task_id = demo.parent.name
    task = next(json.loads(p.read_text()) for p in TASKS.glob(f"*/{task_id}.json"))
    truth = parse_truth(task["LimitingCases"][k]["truth"])
    var_main = (demo.parent / "limiting" / f"{k}.main.py").read_text()
    for stage_file, script, should_pass in [("after_programming_repair", with_faults("c"), False), ("final (solution.py)", solution, True)]:
        r = run_script(replace_main(script, var_main), args.timeout)
        passed, detail = compare(pick_result(r.stdout), truth) if r.rc == 0 else (False, f"crashed {tail(r.stderr, 1)}")
        out.append(Line("demo", f"{stage_file}:assertion:{k}", passed == should_pass, detail))
    return out


# ---------------------------------------------------------------- main


def print_table(reports: list[Report], total: float, label: str = "total wall time") -> None:
    print()
    hdr = f"{'task':34} {'topic':6} {'ref':4} {'assertions':10} {'convergence':26} {'mutants':8} {'wall s':>7}"
    print(hdr)
    print("-" * len(hdr))
    for r in reports:
        main_ok = next((l.ok for l in r.lines if l.kind == "reference"), None)
        a = f"{r.assertions[0]}/{r.assertions[1]}"
        m = f"{r.mutants[0]}/{r.mutants[1]}" if r.mutants[1] else "-"
        print(f"{r.task_id:34} {r.topic:6} {'-' if main_ok is None else 'ok' if main_ok else 'FAIL':4} {a:10} {r.convergence[:26]:26} {m:8} {r.wall:7.1f}  {'GREEN' if r.ok else 'RED'}")
    print("-" * len(hdr))
    print(f"{label} {total:.1f} s; {sum(r.ok for r in reports)}/{len(reports)} tasks as expected")


def reports_from_json(paths: list[str]) -> list[Report]:
    """Reports saved with --json; a task in a later file replaces the same task of an earlier one."""
    by_id: dict[str, Report] = {}
    for path in paths:
        for d in json.loads(Path(path).read_text()):
            lines = [Line(**l) for l in d["lines"]]
            by_id[d["task_id"]] = Report(d["task_id"], d["topic"], lines, tuple(d["assertions"]), d["convergence"], tuple(d["mutants"]), d["wall"])
    return list(by_id.values())


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("ids", nargs="*", help="task ids (default: all tasks with a reference)")
    ap.add_argument("--topic", action="append", help="only these topics (repeatable)")
    ap.add_argument("--no-mutants", action="store_true")
    ap.add_argument("--no-convergence", action="store_true")
    ap.add_argument("--demo", action="store_true", help="also check the demo fixtures (unit harnesses, integration levels)")
    ap.add_argument("--demo-only", action="store_true", help="only the demo fixtures")
    ap.add_argument("--jobs", type=int, default=2, help="parallel runs per task (default 2)")
    ap.add_argument("--tasks", type=int, default=1, help="tasks checked at the same time (default 1)")
    ap.add_argument("--timeout", type=float, default=300.0, help="seconds per script run")
    ap.add_argument("--json", help="write the report as JSON to this file")
    ap.add_argument("--table", nargs="+", metavar="JSON", help="only print the table of saved --json reports (later files win per task)")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()
    if args.table:
        reports = reports_from_json(args.table)
        print_table(reports, sum(r.wall for r in reports), "sum of the tasks' wall times")
        return 0 if all(r.ok for r in reports) else 1
    if not VENV_PY.exists():
        print(f"missing {VENV_PY}: run scripts/bootstrap.sh first", file=sys.stderr)
        return 2
    files = sorted(TASKS.glob("*/*.json"))
    if args.ids:
        files = [f for f in files if f.stem in args.ids]
        missing = set(args.ids) - {f.stem for f in files}
        if missing:
            print(f"unknown task id(s): {sorted(missing)} (looked in {TASKS})", file=sys.stderr)
            return 2
    if args.topic:
        files = [f for f in files if f.parent.name in args.topic]
    def has_reference(f: Path) -> bool:
        task = json.loads(f.read_text(encoding="utf-8-sig"))
        return "reference" in task or (REFS / task.get("id", f.stem)).is_dir()

    skipped = [f.stem for f in files if not has_reference(f)]
    if skipped:
        print(f"skipped (no reference solution): {', '.join(skipped)}")
    files = [f for f in files if has_reference(f)]
    t0 = time.time()

    def one(f: Path) -> Report:
        print(f"== {f.stem}", flush=True)
        rep = check_task(f, args)
        for l in rep.lines:
            if not l.ok:
                print(f"  FAIL [{rep.task_id}] {l.kind} {l.name}: {l.detail}", flush=True)
        print(f"== done {f.stem} ({rep.wall:.0f} s)", flush=True)
        return rep

    with ThreadPoolExecutor(max_workers=max(1, args.tasks)) as task_pool:
        reports = list(task_pool.map(one, files))
    total = time.time() - t0
    print_table(reports, total)
    if args.json:
        Path(args.json).write_text(json.dumps([{**{k: v for k, v in r.__dict__.items() if k != 'lines'},
                                                 "ok": r.ok, "lines": [l.__dict__ for l in r.lines]} for r in reports], indent=1))
    return 0 if all(r.ok for r in reports) else 1


if __name__ == "__main__":
    sys.exit(main())

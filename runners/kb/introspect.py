"""Introspect installed Python packages into JSONL records for physvec's knowledge base.

Runs in the sandbox with its work dir as cwd. Output goes to a file (never stdout) because importing
arbitrary modules may print. Importing decides which objects exist and under which names; their
signatures and docstrings come from the source through griffe (static_docs.py, beside this file), and
from `inspect` only where there is no Python source.

  introspect.py versions --out F <dist> [<dist> ...]    -> F holds one JSON object {dist: version or null}
  introspect.py symbols --out F --toolchain T --package P [--package P2 ...]
                [--max-symbols N] [--max-doc-chars N] [--time-budget S]

Record types written to F (one JSON object per line):
  {"type": "package", "toolchain", "package", "version"}
  {"type": "symbol", "toolchain", "kind", "qualname", "aliases", "module", "signature", "doc", "members"}
  {"type": "summary", "toolchain", "modules", "failed_modules", "symbols", "truncated", "seconds"}
"""
import argparse
import contextlib
import importlib
import importlib.metadata
import inspect
import json
import os
import pkgutil
import sys
import time
import warnings

from static_docs import StaticDocs

# Folders that hold test suites, examples or build helpers rather than user-facing API.
SKIP_SEGMENTS = {"test", "tests", "testing", "benchmarks", "benchmark", "examples", "conftest", "setup"}
MAX_ALIASES = 6
MAX_SIGNATURE = 400
MAX_MEMBERS = 60


def dist_version(dist):
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return None


def is_public_module(name):
    return not any(seg.startswith("_") or seg in SKIP_SEGMENTS for seg in name.split("."))


def safe_import(name):
    # Import side effects (prints, sys.exit, optional-dependency errors) must never stop the walk.
    try:
        with contextlib.redirect_stdout(sys.stderr), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return importlib.import_module(name), None
    except BaseException as exc:  # noqa: BLE001 - SystemExit from a module is a failure of that module only
        if isinstance(exc, KeyboardInterrupt):
            raise
        return None, f"{type(exc).__name__}: {exc}"[:300]


def public_module_names(root, deadline):
    names = [root.__name__]
    path = getattr(root, "__path__", None)
    if not path:
        return names

    def onerror(_name):
        pass

    for info in pkgutil.walk_packages(path, root.__name__ + ".", onerror=onerror):
        if time.monotonic() > deadline:
            break
        if is_public_module(info.name):
            names.append(info.name)
    return names


def clip(sig):
    return sig if len(sig) <= MAX_SIGNATURE else sig[: MAX_SIGNATURE - 3] + "..."


def runtime_signature(obj):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            sig = str(inspect.signature(obj))
    except (TypeError, ValueError, RuntimeError, AttributeError, NameError):
        return ""
    except Exception:  # noqa: BLE001 - exotic descriptors raise anything
        return ""
    return sig


def own_doc(obj):
    doc = getattr(obj, "__doc__", None)
    if not isinstance(doc, str):
        return ""
    return inspect.cleandoc(doc)


def belongs_to(obj, root_names):
    mod = getattr(obj, "__module__", None)
    return isinstance(mod, str) and mod.split(".")[0] in root_names


def exported_names(module):
    names = getattr(module, "__all__", None)
    if isinstance(names, (list, tuple)):
        return [n for n in names if isinstance(n, str) and not n.startswith("_")]
    return [n for n in dir(module) if not n.startswith("_")]


def alias_rank(name, defining_module):
    # A re-export from an ancestor of the defining module is the documented import path
    # (qiskit.circuit.library.PauliEvolutionGate, not qiskit.qpy.type_keys.PauliEvolutionGate, which merely
    # imports it); among those prefer `pkg.sub.Name` over the bare top-level re-export, then short paths.
    module = name.rsplit(".", 1)[0]
    ancestor = defining_module == module or defining_module.startswith(module + ".")
    dots = name.count(".")
    return (0 if ancestor else 1, 0 if dots >= 2 else 1, dots, len(name), name)


def inherited_members(cls, root_names):
    """Public methods inherited from a base inside the same packages: (name, defining base)."""
    own = vars(cls)
    out = []
    for name in dir(cls):
        if name.startswith("_") or name in own:
            continue
        for base in cls.__mro__[1:]:
            if name in vars(base):
                if belongs_to(base, root_names):
                    out.append((name, base))
                break
    return out


def class_members(cls):
    """Public methods/properties defined on the class itself (inherited ones belong to their base)."""
    out = []
    for name, raw in vars(cls).items():
        if name.startswith("_"):
            continue
        if isinstance(raw, (staticmethod, classmethod)):
            fn, kind = raw.__func__, "method"
        elif isinstance(raw, property):
            fn, kind = raw.fget, "property"
        elif inspect.isfunction(raw):
            fn, kind = raw, "method"
        else:
            continue
        out.append((name, fn if fn is not None else raw, kind))
    return out


class Collector:
    def __init__(self, toolchain, root_names, max_doc):
        self.toolchain = toolchain
        self.root_names = root_names
        self.max_doc = max_doc
        self.static = StaticDocs()
        self.objects = {}  # id -> [obj, set(aliases)]
        self.modules = []  # (name, module)

    def add_module(self, name, module):
        self.modules.append((name, module))
        for attr in exported_names(module):
            try:
                obj = getattr(module, attr)
            except BaseException:  # noqa: BLE001 - lazy attributes may fail to load
                continue
            if not (inspect.isclass(obj) or inspect.isfunction(obj) or inspect.isbuiltin(obj) or callable(obj)):
                continue
            if inspect.ismodule(obj) or not belongs_to(obj, self.root_names):
                continue
            entry = self.objects.setdefault(id(obj), [obj, set()])
            entry[1].add(f"{name}.{attr}")

    def signature(self, obj, is_class=False):
        static = self.static.class_signature(obj) if is_class else self.static.signature(obj)
        return clip(static if static is not None else runtime_signature(obj))

    def doc(self, obj):
        static = self.static.docstring(obj)
        return static or own_doc(obj)

    def trimmed(self, doc):
        return doc if len(doc) <= self.max_doc else doc[: self.max_doc] + "\n[...]"

    def inherited_aliases(self, qual_of):
        """`tenpy.networks.mps.MPS.expectation_value` is a real name of the method defined on
        BaseMPSExpectationValue: key (id(base), method) -> names through public subclasses."""
        out = {}
        for obj, _aliases in self.objects.values():
            if not inspect.isclass(obj) or id(obj) not in qual_of:
                continue
            try:
                pairs = inherited_members(obj, self.root_names)
            except Exception:  # noqa: BLE001 - exotic metaclasses
                continue
            for name, base in pairs:
                out.setdefault((id(base), name), set()).add(f"{qual_of[id(obj)]}.{name}")
        return out

    def records(self):
        qual_of = {}
        for key, (obj, aliases) in self.objects.items():
            defining_module = getattr(obj, "__module__", "") or ""
            qual_of[key] = sorted(aliases, key=lambda a: alias_rank(a, defining_module))[0]
        inherited = self.inherited_aliases(qual_of)
        for name, module in self.modules:
            doc = own_doc(module)
            if doc:
                yield {"kind": "module", "qualname": name, "aliases": [], "module": name,
                       "signature": "", "doc": self.trimmed(doc), "members": []}
        for obj, aliases in self.objects.values():
            defining_module = getattr(obj, "__module__", "") or ""
            ranked = sorted(aliases, key=lambda a: alias_rank(a, defining_module))
            qual = ranked[0]
            defining = f"{getattr(obj, '__module__', '')}.{getattr(obj, '__qualname__', getattr(obj, '__name__', ''))}"
            others = list(ranked[1:])
            if defining != qual and defining not in others and is_public_module(defining.rsplit(".", 1)[0]):
                others.insert(0, defining)
            others = others[:MAX_ALIASES]
            if inspect.isclass(obj):
                members = class_members(obj)
                doc = self.doc(obj) or own_doc(getattr(obj, "__init__", None))
                yield {"kind": "class", "qualname": qual, "aliases": others,
                       "module": getattr(obj, "__module__", ""), "signature": self.signature(obj, is_class=True),
                       "doc": self.trimmed(doc), "members": [m[0] for m in members][:MAX_MEMBERS]}
                for mname, fn, kind in members:
                    # Undocumented members still tell an agent that `mycc.ccsd_t()` exists and how to call it.
                    mdoc = self.doc(fn)
                    via_subclasses = sorted(inherited.get((id(obj), mname), ()), key=lambda a: (a.count("."), len(a), a))
                    member_aliases = [f"{a}.{mname}" for a in others[:2]] + via_subclasses[:MAX_ALIASES]
                    yield {"kind": kind, "qualname": f"{qual}.{mname}",
                           "aliases": member_aliases,
                           "module": getattr(obj, "__module__", ""),
                           "signature": self.signature(fn) if kind == "method" else "",
                           "doc": self.trimmed(mdoc), "members": []}
            else:
                yield {"kind": "function", "qualname": qual, "aliases": others,
                       "module": getattr(obj, "__module__", ""), "signature": self.signature(obj),
                       "doc": self.trimmed(self.doc(obj)), "members": []}


def cmd_versions(args):
    with open(args.out, "w", encoding="utf-8") as out:
        json.dump({d: dist_version(d) for d in args.dists}, out)


def cmd_symbols(args):
    start = time.monotonic()
    deadline = start + args.time_budget
    roots = {}
    with open(args.out, "w", encoding="utf-8") as out:
        def emit(rec):
            out.write(json.dumps(rec, ensure_ascii=False) + "\n")

        for spec in args.package:
            import_name, _, dist = spec.partition("=")
            module, err = safe_import(import_name)
            emit({"type": "package", "toolchain": args.toolchain, "package": import_name,
                  "version": dist_version(dist or import_name), "error": err})
            if module is not None:
                roots[import_name] = module
        collector = Collector(args.toolchain, set(roots), args.max_doc_chars)
        failed = 0
        seen = 0
        for root in roots.values():
            for name in public_module_names(root, deadline):
                if time.monotonic() > deadline:
                    break
                module, err = safe_import(name)
                seen += 1
                if module is None:
                    failed += 1
                    continue
                collector.add_module(name, module)
        records = [r for r in collector.records() if r["doc"] or r["kind"] != "module"]
        # Over the cap, undocumented symbols are dropped first: they only carry a name and a signature.
        records.sort(key=lambda r: 0 if r["doc"] else 1)
        truncated = len(records) > args.max_symbols
        for rec in records[: args.max_symbols]:
            rec.update({"type": "symbol", "toolchain": args.toolchain})
            emit(rec)
        count = min(len(records), args.max_symbols)
        emit({"type": "summary", "toolchain": args.toolchain, "modules": seen, "failed_modules": failed,
              "symbols": count, "truncated": truncated or time.monotonic() > deadline,
              "seconds": round(time.monotonic() - start, 2)})


def main():
    os.environ.setdefault("MPLBACKEND", "Agg")
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    pv = sub.add_parser("versions")
    pv.add_argument("--out", required=True)
    pv.add_argument("dists", nargs="+")
    ps = sub.add_parser("symbols")
    ps.add_argument("--out", required=True)
    ps.add_argument("--toolchain", required=True)
    ps.add_argument("--package", action="append", required=True, help="import_name[=distribution]")
    ps.add_argument("--max-symbols", type=int, default=6000)
    ps.add_argument("--max-doc-chars", type=int, default=12000)
    ps.add_argument("--time-budget", type=float, default=90.0)
    args = parser.parse_args()
    if args.cmd == "versions":
        cmd_versions(args)
    else:
        cmd_symbols(args)


if __name__ == "__main__":
    main()

"""Call recording of a script's own functions: what each call was given and what it returned, in summary.

physvec adds one line before a script's entry-point call (assertion variants and the final run):

    import physvec_runtime.calls; physvec_runtime.calls.record(globals(), ["hamiltonian_x", ...])

Each named function is replaced in the module's namespace by a wrapper that calls it unchanged and
records, per call, its arguments by parameter name and its return value as summaries: numbers as
numbers, arrays by shape, dtype, a few statistics and a content hash (values rounded to 10 decimals,
so the same computation gives the same hash), other values by a hash of their contents where one can
be had, else by type and identity — an ordinal in order of first appearance ("Chain#1"), not a memory
address, so the record of a run is the same file every time the run is repeated (issue 24: a demo
repeated under load differed from the idle one only by the addresses in this file). The record is written to `physvec_calls.json` in the working
directory when the script ends (also when it fails). The Scientific verifier compares the values a
function returned in failing and passing variants (lib/verification/suspects.ts); the report lists
the parameters the final run actually used. Recording never changes what a function returns or
raises, and never fails the script: anything it cannot summarise is summarised as opaque.
"""
from __future__ import annotations

import atexit
import functools
import hashlib
import inspect
import json
import math
import os
from collections.abc import Callable
from typing import Any

CALLS_FILE = "physvec_calls.json"
_PER_FUNCTION = 48
_MAX_RECORDS = 1500
_MAX_ITEMS = 8
_records: list[dict[str, Any]] = []
_counts: dict[str, int] = {}
_clock = 0
_registered = False
# id(v) -> (ordinal label, a weak reference to v or v itself): a label is reused only for the same
# live object — an address freed and taken by a new object gets a new label.
_identities: dict[int, tuple[str, Any]] = {}
_ordinals: dict[str, int] = {}
_MAX_STRONG = 256
_strong = 0


def record(namespace: dict[str, Any], names: list[str], path: str = CALLS_FILE) -> None:
    """Wrap the functions `names` of `namespace` (a module's globals) so their calls are recorded."""
    global _registered
    try:
        for name in names:
            fn = namespace.get(name)
            if callable(fn) and not getattr(fn, "_physvec_recorded", False):
                namespace[name] = _wrap(name, fn)
        if not _registered:
            atexit.register(_write, os.path.abspath(path))
            _registered = True
    except Exception:  # recording is evidence, never a reason for the script to fail
        pass


def _wrap(name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    try:
        sig: inspect.Signature | None = inspect.signature(fn)
    except (TypeError, ValueError):
        sig = None

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        global _clock
        _clock += 1
        start = _clock
        out = fn(*args, **kwargs)
        _clock += 1
        n = _counts.get(name, 0)
        _counts[name] = n + 1
        if n < _PER_FUNCTION and len(_records) < _MAX_RECORDS:
            try:
                _records.append({"fn": name, "start": start, "end": _clock, "args": _arguments(sig, args, kwargs), "out": summarise(out)})
            except Exception:
                pass
        return out

    wrapper.__dict__["_physvec_recorded"] = True
    return wrapper


def _arguments(sig: inspect.Signature | None, args: tuple[Any, ...], kwargs: dict[str, Any]) -> dict[str, Any]:
    if sig is not None:
        try:
            bound = sig.bind(*args, **kwargs)
            return {k: summarise(v) for k, v in list(bound.arguments.items())[:16]}
        except TypeError:
            pass
    named = {f"arg{i}": summarise(v) for i, v in enumerate(args[:16])}
    named.update({k: summarise(v) for k, v in list(kwargs.items())[:16]})
    return named


def _hash(data: bytes) -> str:
    return hashlib.sha1(data).hexdigest()[:16]


def _number(x: float) -> dict[str, Any]:
    if not math.isfinite(x):
        return {"t": "num", "v": str(x), "h": _hash(str(x).encode())}
    r = float(f"{x:.10g}") + 0.0
    return {"t": "num", "v": r, "h": _hash(repr(r).encode())}


def summarise(v: Any, depth: int = 0) -> dict[str, Any]:
    """A JSON-able summary of `v` with a content hash `h` when its contents can be hashed, else an identity `id`."""
    try:
        return _summarise(v, depth)
    except Exception:
        return _opaque(v)


def _identity(v: Any, kind: str) -> str:
    """The run-stable label of object `v`: the same for the same object, "<kind>#<n>" by first appearance."""
    global _strong
    import weakref
    known = _identities.get(id(v))
    if known is not None:
        label, ref = known
        alive = ref() if isinstance(ref, weakref.ref) else ref
        if alive is v:
            return label
    n = _ordinals.get(kind, 0) + 1
    _ordinals[kind] = n
    label = f"{kind}#{n}"
    try:
        held: Any = weakref.ref(v)
    except TypeError:  # lists, dicts, tuples: held (a few) so their address is not reused while labelled
        if _strong >= _MAX_STRONG:
            return label
        _strong += 1
        held = v
    _identities[id(v)] = (label, held)
    return label


def _opaque(v: Any) -> dict[str, Any]:
    return {"t": "obj", "type": type(v).__name__, "id": _identity(v, type(v).__name__)}


def _summarise(v: Any, depth: int) -> dict[str, Any]:
    if v is None or isinstance(v, bool):
        return {"t": "num" if isinstance(v, bool) else "none", "v": v, "h": _hash(repr(v).encode())}
    if isinstance(v, int):
        return {"t": "num", "v": v, "h": _hash(repr(float(v)).encode())} if abs(v) < 2**53 else {"t": "num", "v": str(v), "h": _hash(str(v).encode())}
    if isinstance(v, float):
        return _number(v)
    if isinstance(v, complex):
        re_, im_ = _number(v.real), _number(v.imag)
        return {"t": "num", "v": [re_["v"], im_["v"]], "h": _hash((re_["h"] + im_["h"]).encode())}
    if isinstance(v, str):
        return {"t": "str", "v": v[:80], "h": _hash(v.encode())}
    if isinstance(v, (list, tuple)) and depth < 3:
        items = [summarise(x, depth + 1) for x in v[:64]]
        if all("h" in it for it in items) and len(v) <= 64:
            h = _hash(("|".join(it["h"] for it in items)).encode())
            return {"t": "seq", "n": len(v), "items": items[:_MAX_ITEMS], "parts": [it["h"] for it in items], "h": h}
        return {"t": "seq", "n": len(v), "items": items[:_MAX_ITEMS], "id": _identity(v, "seq")}
    if isinstance(v, dict) and depth < 3:
        keys = [str(k) for k in list(v.keys())[:32]]
        vals = [summarise(x, depth + 1) for x in list(v.values())[:32]]
        if all("h" in x for x in vals) and len(v) <= 32:
            return {"t": "dict", "keys": keys, "h": _hash(("|".join(k + "=" + x["h"] for k, x in zip(keys, vals))).encode())}
        return {"t": "dict", "keys": keys, "id": _identity(v, "dict")}
    array = _as_array(v)
    if array is not None:
        return array
    text = repr(v)
    # A repr that shows contents (a Pauli sum, a small object) identifies them; one with an address does not.
    if len(text) <= 4000 and " at 0x" not in text and "object at" not in text:
        return {"t": "obj", "type": type(v).__name__, "h": _hash(text.encode())}
    return _opaque(v)


def _as_array(v: Any) -> dict[str, Any] | None:
    import sys
    np = sys.modules.get("numpy")
    if np is None:
        return None
    if hasattr(v, "tocsr") and hasattr(v, "shape") and hasattr(v, "nnz"):  # scipy sparse
        m = v.tocsr()
        m.sort_indices()
        return _array_summary(np, np.asarray(m.data), tuple(v.shape), extra=np.concatenate([m.indices, m.indptr]).tobytes())
    if isinstance(v, np.ndarray) or hasattr(v, "__array__"):
        a = np.asarray(v)
        if a.dtype.kind not in "biufc":
            return None
        return _array_summary(np, a, tuple(a.shape))
    if isinstance(v, np.generic):
        return _summarise(v.item(), 0)
    return None


def _array_summary(np: Any, a: Any, shape: tuple[int, ...], extra: bytes = b"") -> dict[str, Any]:
    kind = "complex" if a.dtype.kind == "c" else "real"
    b = np.round(a.astype(np.complex128 if kind == "complex" else np.float64), 10) + 0.0
    h = _hash(str(shape).encode() + kind.encode() + np.ascontiguousarray(b).tobytes() + extra)
    out: dict[str, Any] = {"t": "array", "shape": list(shape), "dtype": str(a.dtype), "h": h}
    if b.size:
        mag = np.abs(b)
        out["norm"] = float(f"{float(np.sqrt(np.sum(mag * mag))):.10g}")
        if kind == "real":
            out["min"] = float(f"{float(np.min(b)):.10g}")
            out["max"] = float(f"{float(np.max(b)):.10g}")
    return out


def _write(path: str) -> None:
    try:
        doc = {"version": 1, "calls": _records, "counts": _counts}
        tmp = f"{path}.{os.getpid()}.tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(doc, f, default=str)
        os.replace(tmp, path)
    except Exception:
        pass

"""physvec's runtime for scripts in the sandbox: live progress and checkpoints that survive a crash.

    import physvec_runtime as pv

    pv.progress(sweep=3, sweeps=20, E=-15.4066)        # shown live by `physvec status` and the Temporal UI
    state = pv.load_json("series", default={})          # None/default on a first run, the saved value on a resumed one
    pv.save_json("series", state)                       # atomically replaced; uploaded at the next heartbeat

The worker polls two places inside the work dir at each heartbeat (every few seconds): the progress
file (one JSON object, atomically replaced here) and the checkpoint directory (flat: one file per
name). Changed checkpoint files go to the artifact store; when a run is retried after its worker
died (on this host or any host sharing the store) they are put back into the checkpoint directory
before the script starts, and `resumed()` is True.

Outside physvec (PHYSVEC_CHECKPOINT_DIR unset) checkpoints go to a fresh temporary directory, so a
script never resumes by accident, and progress() does nothing. Set PHYSVEC_CHECKPOINT_DIR yourself
to resume by hand.
"""
from __future__ import annotations

import contextlib
import json
import math
import os
import pickle
import re
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, Union

if TYPE_CHECKING:  # numpy is imported only by the calls that need it
    import numpy.typing as npt

# What progress() keeps of a value: JSON scalars.
Scalar = Union[bool, int, float, str, None]

__all__ = [
    "progress", "checkpoint_dir", "checkpoint_path", "resumed", "exists", "remove", "atomic_path",
    "save_bytes", "load_bytes", "save_json", "load_json", "save_pickle", "load_pickle",
    "save_npz", "load_npz", "save_hdf5", "load_hdf5", "checkpointed_dmrg", "checkpointed_vmc", "use_chkfile",
]

_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.+-]{0,127}$")
_MAX_VALUES = 24
_MAX_TEXT = 200
_dir: Path | None = None
_resumed: bool | None = None
_seq = 0


def checkpoint_dir() -> Path:
    """The run's checkpoint directory (created on first use)."""
    global _dir, _resumed
    if _dir is None:
        given = os.environ.get("PHYSVEC_CHECKPOINT_DIR")
        _dir = Path(given) if given else Path(tempfile.mkdtemp(prefix="physvec-checkpoint-"))
        _dir.mkdir(parents=True, exist_ok=True)
        _resumed = any(not p.name.startswith(".") for p in _dir.iterdir())
    return _dir


def resumed() -> bool:
    """True when the checkpoint directory held files before this run wrote any (a retried run)."""
    checkpoint_dir()
    return bool(_resumed)


def checkpoint_path(name: str) -> Path:
    """Where checkpoint `name` lives; for libraries that write their own file (e.g. a PySCF chkfile)."""
    if not isinstance(name, str) or not _NAME.match(name):
        raise ValueError(f"checkpoint name {name!r}: use letters, digits and _.+- (no '/', not starting with '.')")
    return checkpoint_dir() / name


def exists(name: str) -> bool:
    return checkpoint_path(name).is_file()


def remove(name: str) -> None:
    with contextlib.suppress(FileNotFoundError):
        checkpoint_path(name).unlink()


@contextlib.contextmanager
def atomic_path(name: str) -> Iterator[Path]:
    """Yield a temporary path to write checkpoint `name` to; it replaces the old one only when the block succeeds."""
    final = checkpoint_path(name)
    # A leading dot and '.tmp': the worker never uploads a half-written file.
    tmp = final.with_name(f".{final.name}.{os.getpid()}.tmp{''.join(final.suffixes[-1:])}")
    try:
        yield tmp
        os.replace(tmp, final)
    finally:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()


def save_bytes(name: str, data: bytes) -> None:
    with atomic_path(name) as tmp:
        tmp.write_bytes(data)


def load_bytes(name: str, default: bytes | None = None) -> bytes | None:
    p = checkpoint_path(name)
    return p.read_bytes() if p.is_file() else default


def save_json(name: str, value: Any) -> None:
    save_bytes(name, json.dumps(value, default=_plain).encode("utf-8"))


def load_json(name: str, default: Any = None) -> Any:
    data = load_bytes(name)
    return default if data is None else json.loads(data)


def save_pickle(name: str, value: Any) -> None:
    save_bytes(name, pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))


def load_pickle(name: str, default: Any = None) -> Any:
    data = load_bytes(name)
    return default if data is None else pickle.loads(data)


def save_npz(name: str, **arrays: Any) -> None:
    """Arrays (anything np.asarray takes) by name, as np.savez writes them."""
    import numpy as np
    with atomic_path(name) as tmp:
        with open(tmp, "wb") as f:
            np.savez(f, **arrays)


def load_npz(name: str) -> dict[str, npt.NDArray[Any]] | None:
    """A dict of arrays, or None."""
    import numpy as np
    p = checkpoint_path(name)
    if not p.is_file():
        return None
    with np.load(p, allow_pickle=False) as z:
        return {k: z[k] for k in z.files}


def save_hdf5(name: str, value: Any) -> None:
    """TeNPy's HDF5 export (tenpy.tools.hdf5_io): MPS, environments, resume data of an engine."""
    from tenpy.tools import hdf5_io
    with atomic_path(name) as tmp:
        hdf5_io.save(value, str(tmp))


def load_hdf5(name: str, default: Any = None) -> Any:
    from tenpy.tools import hdf5_io
    p = checkpoint_path(name)
    return hdf5_io.load(str(p)) if p.is_file() else default


def progress(**values: object) -> None:
    """Report where the simulation is (numbers, short strings, booleans); the latest call wins.

    Cheap enough to call every sweep or iteration: one small file, atomically replaced.
    """
    global _seq
    target = os.environ.get("PHYSVEC_PROGRESS_FILE")
    if not target:
        return
    clean: dict[str, Scalar] = {}
    for k, v in list(values.items())[:_MAX_VALUES]:
        clean[str(k)[:64]] = _scalar(v)
    _seq += 1
    doc = {"values": clean, "t": time.time(), "seq": _seq}
    tmp = f"{target}.{os.getpid()}.tmp"
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(doc, f)
        os.replace(tmp, target)
    except OSError:
        # Progress is a courtesy: never let it take the simulation down.
        with contextlib.suppress(OSError):
            os.unlink(tmp)


def _scalar(v: Any) -> Scalar:
    if isinstance(v, bool) or v is None:
        return v
    if isinstance(v, int):
        return v
    if isinstance(v, str):
        return v[:_MAX_TEXT]
    try:
        f = float(v.real if hasattr(v, "real") and not isinstance(v, (int, float)) else v)
        return f if math.isfinite(f) else str(f)
    except (TypeError, ValueError):
        return str(v)[:_MAX_TEXT]


def _plain(v: Any) -> Any:
    """json default: numpy scalars and arrays."""
    if hasattr(v, "tolist"):
        return v.tolist()
    raise TypeError(f"{type(v).__name__} is not JSON serialisable; use save_pickle or save_npz")


# One-call checkpointing in each library's idiom (each imports its library only when called).
from .netket_vmc import checkpointed_vmc  # noqa: E402
from .pyscf_scf import use_chkfile  # noqa: E402
from .tenpy_dmrg import checkpointed_dmrg  # noqa: E402

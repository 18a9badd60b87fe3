"""Runs the `check` snippet of every rule of data/protocol-translations/orca-pyscf.json against the
installed PySCF, on tiny molecules (H2, H2O, Ne in minimal or double-zeta bases), one process for all.

Reads a JSON list of {"id", "check"} on stdin; prints {"results": {id: "ok" | error text}, "cpuSeconds"}. The
helpers below are what the snippets may call: each asserts a stated effect, not just that code runs
(PySCF objects accept any attribute name silently, so `known` checks that PySCF reads the attribute).
"""

import io
import json
import re
import resource
import sys
import traceback
import warnings
from functools import cache
from typing import Any, Callable

from pyscf import dft, gto, lib, scf, tddft

warnings.filterwarnings("ignore")

H_631G = """
H    S
     18.7311370              0.03349460
      2.8253937              0.23472695
      0.6401217              0.81375733
H    S
      0.1612778              1.0000000
"""


def h2(basis: Any = "sto-3g", spin: int = 0, atom: str = "H 0 0 0; H 0 0 0.74") -> gto.Mole:
    return gto.M(atom=atom, basis=basis, spin=spin, verbose=0)


def water() -> gto.Mole:
    return gto.M(atom="O 0 0 0; H 0 0.757 0.587; H 0 -0.757 0.587", basis="sto-3g", verbose=0)


def rks(xc: str = "LDA", mol: Any = None) -> Any:
    """A Kohn-Sham object on a coarse grid (level 1): the checks compare settings, not absolute energies."""
    mf = dft.RKS(mol if mol is not None else h2())
    mf.xc = xc
    mf.grids.level = 1
    return mf


@cache
def ref(xc: str = "LDA") -> float:
    """The energy of H2 with `xc` and nothing else set: the baseline a setting must change."""
    return energy(rks(xc))


def energy(mf: Any) -> float:
    e = float(mf.kernel())
    assert mf.converged, "the SCF did not converge"
    return e


def converged(mf: Any) -> Any:
    energy(mf)
    return mf


def known(obj: Any, attr: str) -> None:
    """The attribute is one PySCF reads (a declared key or a class attribute), not a silently kept name."""
    keys: set[str] = set()
    for k in type(obj).__mro__:
        keys |= set(getattr(k, "_keys", ()) or ())
    ok = attr in keys or hasattr(type(obj), attr)
    assert ok, f"{type(obj).__name__} has no attribute {attr!r}: setting it does nothing"


def differs(a: float, b: float, tol: float = 1e-7) -> None:
    assert abs(a - b) > tol, f"{a} and {b} agree within {tol}: the setting had no effect"


def fails(fn: Callable[[], Any]) -> None:
    try:
        fn()
    except Exception:
        return
    raise AssertionError("expected this to fail")


def xc_changes(*names: str) -> None:
    base = ref()
    for n in names:
        mf = rks(n)
        known(mf, "xc")
        differs(energy(mf), base)


def loads_basis(*names: str, el: str = "C") -> None:
    for n in names:
        gto.basis.load(n, el)


@cache
def tol_read() -> None:
    """conv_tol is read: a loose threshold stops the SCF earlier than a tight one."""
    cycles = []
    for tol in (1e-1, 1e-12):
        mf = rks(mol=water())
        known(mf, "conv_tol")
        mf.init_guess = "1e"
        mf.conv_tol = tol
        mf.kernel()
        cycles.append(mf.cycles)
    assert cycles[0] < cycles[1], f"cycles {cycles}: conv_tol had no effect"


@cache
def davidson_space(max_memory: float) -> int:
    """The Davidson subspace PySCF's TDDFT solver chose (logged at debug level)."""
    td = tddft.TDDFT(converged(rks(mol=h2("cc-pvdz"))))
    td.nstates = 1
    td.max_memory = max_memory
    td.verbose = 5
    buf = io.StringIO()
    td.stdout = buf
    td.kernel()
    m = re.search(r"max_space (\d+)", buf.getvalue())
    assert m, "the solver logged no subspace size"
    return int(m.group(1))


@cache
def relativistic_shift() -> None:
    ne = h2(atom="Ne 0 0 0")
    differs(energy(dft.RKS(ne).x2c()), energy(dft.RKS(ne)), 1e-4)
    energy(dft.UKS(h2(spin=2)).x2c())
    assert isinstance(dft.KS(h2(spin=2)), dft.uks.UKS) and isinstance(dft.KS(h2()), dft.rks.RKS)


def main() -> None:
    checks = json.load(sys.stdin)
    out: dict[str, str] = {}
    helpers = {k: v for k, v in globals().items() if not k.startswith("_")}
    done: dict[str, str] = {}  # rules sharing one check run it once
    for c in checks:
        if c["check"] not in done:
            try:
                exec(c["check"], {**helpers, "dft": dft, "gto": gto, "lib": lib, "scf": scf, "tddft": tddft})
                done[c["check"]] = "ok"
            except Exception as e:  # noqa: BLE001 - every failure is reported against its rule
                done[c["check"]] = f"{type(e).__name__}: {e} ({traceback.format_exc().strip().splitlines()[-2].strip()})"
        out[c["id"]] = done[c["check"]]
    usage = resource.getrusage(resource.RUSAGE_SELF)
    print(json.dumps({"results": out, "cpuSeconds": round(usage.ru_utime + usage.ru_stime, 1)}))


if __name__ == "__main__":
    main()

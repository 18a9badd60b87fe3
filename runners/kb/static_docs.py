"""Signatures and docstrings read from source code by griffe (static analysis), for introspect.py.

Run-time introspection sees what decorators and dispatch wrappers leave behind: NetKet's drivers are
classes whose metaclass `__call__` is `(*args: Any, **kwargs: Any) -> ~P`, so `inspect.signature` reports
that for every one of them. griffe parses the `def` as written, so the Author reads
`VMC(hamiltonian: AbstractOperator, optimizer: Optimizer, *, variational_state: VariationalState, ...)`.

The import-time walk in introspect.py still decides *which* objects exist and under which names
(`__all__`, re-exports, lazy attributes only exist at run time); this module only answers "what does the
source say about the object defined at module M, qualified name Q". A module is parsed the first time one
of its objects is asked about, so data-only modules (pyscf's 4 MB of basis-set tables) are never read.
Objects with no Python source (compiled extensions, generated dataclass `__init__`s) get None, and the
caller keeps the run-time answer, as it does for everything when griffe is not installed.
"""
import gc
import inspect
import sys
from pathlib import Path

try:
    import griffe
except ImportError:  # a venv set up before griffe joined requirements.txt: run-time answers only
    griffe = None


class StaticDocs:
    def __init__(self):
        self._modules = {}  # module name -> griffe.Module, or None when it has no parsable source

    def _module(self, name):
        if name not in self._modules:
            self._modules[name] = self._visit(name)
        return self._modules[name]

    @staticmethod
    def _visit(name):
        file = getattr(sys.modules.get(name), "__file__", None)
        if griffe is None or not isinstance(file, str) or not file.endswith(".py"):
            return None
        # Parsing allocates millions of AST nodes in a process that already holds every imported module:
        # with the collector on, each of its passes walks that whole heap again.
        was_enabled = gc.isenabled()
        gc.disable()
        try:
            code = Path(file).read_text(encoding="utf-8", errors="replace")
            return griffe.visit(name, filepath=Path(file), code=code)
        except Exception:  # noqa: BLE001 - source griffe cannot parse keeps its run-time answer
            return None
        finally:
            if was_enabled:
                gc.enable()

    def lookup(self, obj):
        """The griffe object for the run-time function or class `obj`, or None.

        Found by the object's `__module__` and `__qualname__`, and kept only when the source agrees:
        pyscf's `kernel = lib.alias(scf, alias_name='kernel')` builds a function by `exec` whose qualname
        `kernel` names the module-level `def kernel(mf, ...)` instead. A function's code must start inside
        the span griffe found (decorators included) in the same file.
        """
        module = getattr(obj, "__module__", None)
        qualname = getattr(obj, "__qualname__", None)
        if not isinstance(module, str) or not isinstance(qualname, str) or "<locals>" in qualname:
            return None
        mod = self._module(module)
        if mod is None:
            return None
        try:
            found = mod[qualname]
        except Exception:  # noqa: BLE001 - KeyError, or an alias griffe cannot resolve without the package
            return None
        if found.is_alias or found.is_class != inspect.isclass(obj) or not self._same_source(obj, found):
            return None
        return found

    @staticmethod
    def _same_source(obj, found):
        try:
            code = getattr(inspect.unwrap(obj), "__code__", None)
        except Exception:  # noqa: BLE001 - unwrap loops or exotic __wrapped__
            code = None
        if code is None:  # classes, dispatchers, C functions: nothing to contradict the name
            return True
        same_file = Path(code.co_filename).resolve() == Path(str(found.filepath)).resolve()
        return same_file and found.lineno is not None and found.lineno <= code.co_firstlineno <= (found.endlineno or found.lineno)

    def signature(self, obj):
        """`(a, b=1, *, c)` of a function as written, or None. Methods come without self/cls."""
        found = self.lookup(obj)
        if found is None or not found.is_function:
            return None
        try:
            # griffe prefixes the name; a one-letter placeholder is cut off again.
            return found.signature(return_type=True, name="_")[1:]
        except Exception:  # noqa: BLE001 - an annotation griffe cannot render
            return None

    def docstring(self, obj):
        found = self.lookup(obj)
        doc = getattr(found, "docstring", None) if found is not None else None
        return doc.value if doc is not None and doc.value else None

    def class_signature(self, cls):
        """The call signature of a class: its `__init__` as written, from whichever base defines it."""
        for base in getattr(cls, "__mro__", ())[:-1]:  # object's __init__ says nothing
            init = vars(base).get("__init__")
            if init is not None:
                return self.signature(init)
        return None

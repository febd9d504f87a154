"""Record the API surface of the installed ``pytorch_lightning`` (stdlib only: it runs with just that release).

Run by ``surface_generate.py`` in the release's environment (``surface_envs.child_env``); prints one JSON object
(or writes ``--out``): ``release``, ``patched`` and the maps described in ``legacy_api/surface.py``. Every list
is sorted and every value is a plain string, so two runs give the same bytes.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import importlib
import inspect
import json
import pkgutil
import sys
import warnings
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = "pytorch_lightning"
OURS = ("pytorch_lightning", "lightning_fabric", "lightning_lite", "lightning")
"""Packages whose classes and module objects count as Lightning's (1.8 bundles lightning_lite, 2.x fabric)."""

PATCHES: dict[str, list[str]] = {}
"""release -> statements run before ``import pytorch_lightning`` to make it import on torch 2.13. Empty: with
the pins of ``surface_envs`` every recorded release imports as is. Recorded in the data's ``patched``."""


def _ours(name: str) -> bool:
    return name.split(".")[0] in OURS


def _graveyard_name(obj: Any) -> str | None:
    """The ``_graveyard`` module that defined ``obj`` (a class, function or module), else None."""
    name = obj.__name__ if isinstance(obj, ModuleType) else getattr(obj, "__module__", None)
    return name if isinstance(name, str) and "._graveyard" in name else None


def module_names(package: ModuleType) -> list[str]:
    """``pkgutil.walk_packages`` without importing: found on disk, so sub-packages that fail to import are
    walked too. Names with a component starting with ``_`` are skipped."""
    found: list[str] = []

    def walk(paths: list[str], prefix: str) -> None:
        for info in pkgutil.iter_modules(paths, prefix):
            if any(part.startswith("_") for part in info.name.split(".")):
                continue
            found.append(info.name)
            if info.ispkg:
                walk([str(Path(paths[0]) / info.name.rsplit(".", 1)[1])], info.name + ".")

    walk(list(package.__path__), package.__name__ + ".")
    return sorted([package.__name__, *found])


def source_names(path: Path) -> list[str]:
    """Names a module's source binds at top level (for a module that fails to import)."""
    names: set[str] = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.ImportFrom):
            names.update(alias.asname or alias.name for alias in node.names)
        elif isinstance(node, ast.Import):
            names.update(alias.asname for alias in node.names if alias.asname and _ours(alias.name))
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                names.update(n.id for n in ast.walk(target) if isinstance(n, ast.Name))
                if isinstance(target, ast.Name) and target.id == "__all__" and node.value is not None:
                    with contextlib.suppress(ValueError):
                        names.update(ast.literal_eval(node.value))
    return sorted(name for name in names if not name.startswith("_") and name != "*")


def class_key(cls: type) -> str:
    return f"{cls.__module__}.{cls.__qualname__}"


def instance_attributes(cls: type) -> set[str]:
    """``self.<name>`` stored (assigned, annotated, unpacked) anywhere in the class's source (best effort)."""
    try:
        tree = ast.parse(inspect.cleandoc("\n" + inspect.getsource(cls)))
    except (OSError, TypeError, SyntaxError):
        return set()
    return {
        node.attr
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and isinstance(node.ctx, ast.Store)
        and isinstance(node.value, ast.Name)
        and node.value.id == "self"
    }


class _Elided:
    def __repr__(self) -> str:
        return "..."


def _literal(value: Any) -> bool:
    try:
        ast.literal_eval(repr(value))
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return False
    return True


def signature(func: Any) -> str | None:
    """``inspect.signature`` without annotations, non-literal defaults shown as ``...``; None if unavailable."""
    try:
        sig = inspect.signature(func)
    except (TypeError, ValueError):
        return None
    params = [
        p.replace(
            annotation=inspect.Parameter.empty,
            default=p.default if p.default is p.empty or _literal(p.default) else _Elided(),
        )
        for p in sig.parameters.values()
    ]
    text = str(sig.replace(parameters=params, return_annotation=inspect.Signature.empty))
    try:
        ast.parse(f"def f{text}: pass")
    except SyntaxError:
        return None
    return text


def own_methods(cls: type) -> dict[str, Any]:
    """The public functions (and ``__init__``) ``cls`` itself defines, Lightning's code only (not torch's):
    name -> the plain function. Inherited ones are found through the recorded bases, so each is stored once."""
    found: dict[str, Any] = {}
    for name, raw in sorted(vars(cls).items()):
        if name.startswith("_") and name != "__init__":
            continue
        func = raw.__func__ if isinstance(raw, (classmethod, staticmethod)) else raw
        if inspect.isfunction(func) and _ours(getattr(func, "__module__", "") or ""):
            found[name] = func
    return found


class Recorder:
    """Walks one imported release into the maps of its surface."""

    def __init__(self) -> None:
        self.modules: dict[str, list[str]] = {}
        self.classes: dict[str, dict[str, Any]] = {}
        self.aliases: dict[str, str] = {}
        self.graveyard: dict[str, str] = {}
        self.unimportable: list[str] = []
        self.deprecated: dict[str, str] = {}
        self._seen: dict[str, type] = {}

    def record_module(self, name: str, package: ModuleType) -> None:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                module = importlib.import_module(name)
            except Exception:  # an optional dependency is missing: its source still tells what it defines
                self.unimportable.append(name)
                base = Path(package.__path__[0]).joinpath(*name.split(".")[1:])
                path = base / "__init__.py" if base.is_dir() else base.with_suffix(".py")
                self.modules[name] = source_names(path)
                return
        for warning in caught:
            if "deprecat" in warning.category.__name__.lower() and name not in self.deprecated:
                self.deprecated[name] = str(warning.message)
        exports: list[str] = []
        for attr in sorted(dir(module)):
            if attr.startswith("__"):
                continue
            obj = getattr(module, attr, None)
            if attr.startswith("_"):
                # Private names are recorded (not their classes): projects import them (_module_available, _PATH),
                # and 2.0 removed most; a submodule is recorded as a module of its own.
                if not isinstance(obj, ModuleType):
                    exports.append(attr)
                continue
            if _graveyard_name(obj):
                self.graveyard[f"{name}.{attr}"] = self.graveyard_message(obj)
                continue
            if isinstance(obj, ModuleType) and (
                not _ours(obj.__name__) or obj.__name__ == f"{name}.{attr}" or name.startswith(obj.__name__)
            ):
                continue  # a foreign module, a submodule (recorded as a module of its own) or an ancestor
            exports.append(attr)
            if isinstance(obj, type) and _ours(obj.__module__):
                self.add_class(obj)
                if class_key(obj) != f"{name}.{attr}":
                    self.aliases[f"{name}.{attr}"] = class_key(obj)
        self.modules[name] = exports

    def add_class(self, cls: type) -> None:
        key = class_key(cls)
        if key in self._seen:
            return
        self._seen[key] = cls
        attributes: set[str] = set()
        for base in cls.__mro__:
            if _ours(base.__module__):
                attributes |= instance_attributes(base)
        members = {m for m in dir(cls) if (not m.startswith("__") or m == "__init__") and m != "_abc_impl"}
        for member in sorted(members):  # 1.8/1.9's graveyard patches raising methods and properties onto classes
            raw = inspect.getattr_static(cls, member, None)
            func = raw.fget if isinstance(raw, property) else raw
            if _graveyard_name(func) is not None:
                members.discard(member)
                if member in vars(cls):
                    self.graveyard[f"{key}.{member}"] = self.graveyard_message(func, method=True)
        members |= {a for a in attributes if not a.startswith("__")}
        signatures = {meth: signature(func) for meth, func in own_methods(cls).items()}
        self.classes[key] = {
            "bases": [class_key(base) for base in cls.__bases__],
            "members": sorted(members),
            "signatures": {meth: sig for meth, sig in signatures.items() if sig is not None},
        }
        for base in cls.__bases__:
            if _ours(base.__module__) and not _graveyard_name(base):
                self.add_class(base)  # a private base still carries inherited members and signatures

    @staticmethod
    def graveyard_message(obj: Any, method: bool = False) -> str:
        """What using a graveyard name does: ``removed: <error>`` or ``deprecated: <warning>``. A class is
        instantiated, a function (a method or a property's getter: ``method``) called, with None for each
        required argument; that runs only the graveyard's own code, which warns or raises first."""
        if isinstance(obj, ModuleType):
            return f"module {obj.__name__}"
        try:  # required arguments get None: a deprecation shim warns before it uses them
            params = inspect.signature(obj).parameters.values()
        except (TypeError, ValueError):
            params = inspect.Signature().parameters.values()
        required = [p for p in params if p.default is p.empty and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
        args = [None for p in required if p.kind != p.KEYWORD_ONLY]
        kwargs = {p.name: None for p in required if p.kind == p.KEYWORD_ONLY}
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                obj(*args, **kwargs)
            except Exception as error:  # what it raises is the data
                if not caught:
                    return f"removed: {type(error).__name__}: {error}"
        if caught:
            return f"deprecated: {caught[0].message}"
        return f"kept by {obj.__module__}" if not method else f"callable, kept by {obj.__module__}"

    def record_module_aliases(self) -> None:
        """Modules put into ``sys.modules`` under a name that is not their own (the 2.x graveyard's doing)."""
        for name, module in sorted(sys.modules.items()):
            if name.startswith(ROOT + ".") and isinstance(module, ModuleType) and module.__name__ != name:
                kind = "graveyard module" if _graveyard_name(module) else "alias of"
                self.graveyard[name] = f"{kind} {module.__name__}"
                self.modules.pop(name, None)
                for attr in sorted(vars(module)) if _graveyard_name(module) else []:
                    obj = vars(module)[attr]
                    if not attr.startswith("_") and _graveyard_name(obj) and callable(obj):
                        self.graveyard[f"{name}.{attr}"] = self.graveyard_message(obj)

    def as_json(self) -> dict[str, Any]:
        return {
            "modules": self.modules,
            "classes": self.classes,
            "aliases": self.aliases,
            "graveyard": self.graveyard,
            "unimportable": sorted(self.unimportable),
            "deprecated": self.deprecated,
        }


def record(release: str) -> dict[str, Any]:
    for statement in PATCHES.get(release, []):
        exec(statement, {})  # a fixed table of one-line patches
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        package = importlib.import_module(ROOT)
    version = str(package.__version__)
    if version != release:
        raise SystemExit(f"expected pytorch_lightning {release}, imported {version} from {package.__file__}")
    recorder = Recorder()
    for name in module_names(package):
        recorder.record_module(name, package)
    recorder.record_module_aliases()
    return {"release": release, "patched": PATCHES.get(release, []), **recorder.as_json()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("release")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    text = json.dumps(record(args.release), sort_keys=True, indent=0) + "\n"
    if args.out:
        args.out.write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

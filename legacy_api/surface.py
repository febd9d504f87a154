"""The API surface of each recorded ``pytorch_lightning`` release, read from ``data/api_surface.json``.

The data is recorded from the real releases, installed in throwaway environments, by
``tools/reference/surface_generate.py`` (see tools/reference/README.md); this module only reads it, with the
standard library. Paths may start with ``pytorch_lightning`` or ``lightning.pytorch`` (the same code in 2.x);
``lightning.fabric`` is read as ``lightning_fabric``.

The file (``format`` 1, sorted keys)::

    {"format": 1, "root": "pytorch_lightning", "generator": "<command>", "date": "YYYY-MM-DD",
     "releases": ["1.4.9", ...],                      # oldest first
     "pins": {release: [requirement, ...]},           # what was installed to record it
     "patched": {release: [statement, ...]},          # patches run before import (none needed so far)
     "digests": {release: sha256},                    # of each full recording, to check the rebuild
     "base": SURFACE,                                 # the first release in full
     "changes": [{"release": r, MAP: DELTA, ...}]}    # each later release against the one before

    SURFACE = {"modules": {module: [public names]},            # dir() minus _names, submodules, foreign modules
               "classes": {"module.Class": {"bases": [qualified names, in order],
                                            "members": [dir() names and self.<attr>s, no dunders but __init__],
                                            "signatures": {method: "(self, x, y=...)"}}},   # own methods only
               "aliases": {"public.path.Class": "defining.module.Class"},
               "graveyard": {qualified name: "removed: <error>" | "deprecated: <warning>" | "graveyard module ..."},
               "deprecated": {module: the deprecation warning importing it gave},
               "unimportable": [modules recorded from their source: an optional dependency is missing]}

    DELTA of a map = {"added": {key: value}, "removed": [key], "changed": {key: change}}; a change is
    {"added": [...], "removed": [...]} for a module's names, the new value for a string, and for a class
    {"bases": new list, "members": {"added", "removed"}, "signatures": DELTA}. ``unimportable``'s DELTA is
    {"added": [...], "removed": [...]}. Graveyard names (kept importable but raising or warning) are never in
    ``modules`` or ``classes``.
"""

from __future__ import annotations

import ast
import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

ROOT = "pytorch_lightning"
_PREFIXES = (("lightning.pytorch", ROOT), ("lightning.fabric", "lightning_fabric"))


@cache
def _data() -> dict[str, Any]:
    text = resources.files("legacy_api").joinpath("data").joinpath("api_surface.json").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


RELEASES: tuple[str, ...] = tuple(_data()["releases"])
"""The recorded releases, oldest first (the last patch release of each minor)."""


def release_for(version: str) -> str:
    """The recorded release of ``version``'s minor: ``"2.6"``, ``"2.6.0"`` or ``"2.6.6"`` -> ``"2.6.6"``.

    Raises ValueError, naming the recorded releases, for a minor that was not recorded.
    """
    minor = tuple(version.strip().split(".")[:2])
    for release in RELEASES:
        if tuple(release.split(".")[:2]) == minor:
            return release
    raise ValueError(f"no recorded Lightning release for {version!r}; recorded: {', '.join(RELEASES)}")


def normalise(path: str) -> str:
    """``lightning.pytorch.X`` -> ``pytorch_lightning.X`` (and ``lightning.fabric`` -> ``lightning_fabric``)."""
    for old, new in _PREFIXES:
        if path == old or path.startswith(old + "."):
            return new + path[len(old) :]
    return path


@dataclass(frozen=True)
class ClassInfo:
    """One recorded class: its bases (qualified, in order), members and its own methods' signatures."""

    bases: tuple[str, ...]
    members: frozenset[str]
    signatures: dict[str, str]


@dataclass(frozen=True)
class Surface:
    """What one release exposes. Build it with :func:`surface`."""

    release: str
    modules: dict[str, frozenset[str]]
    classes: dict[str, ClassInfo]
    aliases: dict[str, str]
    graveyard_names: dict[str, str]
    deprecated: dict[str, str]
    unimportable: frozenset[str]

    def has_module(self, name: str) -> bool:
        """Whether ``name`` is a module of the release (graveyard modules are not)."""
        return normalise(name) in self.modules

    def exports(self, module: str) -> frozenset[str]:
        """The public names of ``module`` (empty for a module the release lacks)."""
        return self.modules.get(normalise(module), frozenset())

    def resolve(self, qualified: str) -> str | None:
        """A class's public path -> its defining key (``pytorch_lightning.Trainer`` ->
        ``pytorch_lightning.trainer.trainer.Trainer``); a module or another exported name -> itself; else None."""
        path = normalise(qualified)
        if path in self.classes:
            return path
        if path in self.aliases:
            return self.aliases[path]
        if path in self.modules:
            return path
        parent, _, name = path.rpartition(".")
        return path if name in self.modules.get(parent, ()) else None

    def home(self, name: str) -> str | None:
        """The public module that exports ``name`` nearest the root (fewest dots, then alphabetically), or None:
        where a name that moved can be imported from in this release. Public: a package or a module right below the
        root (``pytorch_lightning.cli``), not a module that merely imports it for its own use (``strategies.ddp``
        imports ``reset_seed``)."""
        modules = self.modules
        found = [
            (module.count("."), module)
            for module, names in modules.items()
            if name in names and (module.count(".") <= 1 or any(other.startswith(f"{module}.") for other in modules))
        ]
        return min(found)[1] if found else None

    def _class(self, path: str) -> str | None:
        key = self.resolve(path)
        return key if key in self.classes else None

    def _member_path(self, qualified: str) -> tuple[str, str] | None:
        parent, _, name = normalise(qualified).rpartition(".")
        key = self._class(parent)
        return (key, name) if key is not None else None

    def has(self, qualified: str) -> bool:
        """Whether a module, a module's public name or a class member reached through a public path exists
        (``pytorch_lightning.Trainer.fit``). Graveyard names do not."""
        path = normalise(qualified)
        if path in self.modules:
            return True
        parent, _, name = path.rpartition(".")
        if name in self.modules.get(parent, ()):
            return True
        found = self._member_path(path)
        return found is not None and name in self.classes[found[0]].members

    def knows(self, qualified: str) -> bool:
        """Whether the recording can answer :meth:`has` for ``qualified``: a module, a module's name or a class
        member, not an attribute of a function or of an object it did not record (``rank_zero_only.rank``)."""
        parent = normalise(qualified).rpartition(".")[0]
        return not parent or self.has_module(parent) or self._class(parent) is not None or not self.has(parent)

    def members(self, cls_path: str) -> frozenset[str] | None:
        """The members of the class at ``cls_path`` (any public path or its key), or None if it is none."""
        key = self._class(cls_path)
        return self.classes[key].members if key is not None else None

    def mro(self, key: str) -> tuple[str, ...]:
        """``key`` and its recorded Lightning bases, depth first, each once (enough to find a definition)."""
        order: list[str] = []
        pending = [key]
        while pending:
            current = pending.pop(0)
            if current in self.classes and current not in order:
                order.append(current)
                pending = [*self.classes[current].bases, *pending]
        return tuple(order)

    def signature(self, path: str) -> str | None:
        """The signature of a method reached through a public class path, without annotations, non-literal
        defaults as ``...``: ``signature("pytorch_lightning.Trainer.__init__")`` -> ``"(self, logger=True, ...)"``.
        None if the class lacks it or it is not Lightning's own code (e.g. inherited from ``torch.nn.Module``)."""
        found = self._member_path(path)
        if found is None or found[1] not in self.classes[found[0]].members:
            return None
        for key in self.mro(found[0]):
            if found[1] in self.classes[key].signatures:
                return self.classes[key].signatures[found[1]]
        return None

    def graveyard(self, qualified: str) -> str | None:
        """What the graveyard says of a name it keeps (``removed: ...`` / ``deprecated: ...``), for a module
        or name it registered, a name inside such a module, or a member it patched onto a class; else None."""
        path = normalise(qualified)
        if path in self.graveyard_names:
            return self.graveyard_names[path]
        found = self._member_path(path)
        if found is not None:
            for key in self.mro(found[0]):
                if f"{key}.{found[1]}" in self.graveyard_names:
                    return self.graveyard_names[f"{key}.{found[1]}"]
        parent = path.rpartition(".")[0]
        return self.graveyard_names.get(parent) if parent else None


def _apply_set(old: list[str], delta: dict[str, list[str]]) -> list[str]:
    return sorted((set(old) - set(delta.get("removed", []))) | set(delta.get("added", [])))


def _apply_map(old: dict[str, Any], delta: dict[str, Any], kind: str) -> dict[str, Any]:
    gone = set(delta.get("removed", []))
    new = {key: value for key, value in old.items() if key not in gone}
    new.update(delta.get("added", {}))
    for key, change in delta.get("changed", {}).items():
        if kind == "set":
            new[key] = _apply_set(new[key], change)
        elif kind == "class":
            entry = dict(new[key])
            entry["bases"] = change.get("bases", entry["bases"])
            entry["members"] = _apply_set(entry["members"], change.get("members", {}))
            entry["signatures"] = _apply_map(entry["signatures"], change.get("signatures", {}), "value")
            new[key] = entry
        else:
            new[key] = change
    return new


_KINDS = {"modules": "set", "classes": "class", "aliases": "value", "graveyard": "value", "deprecated": "value"}


@cache
def _recordings() -> tuple[dict[str, Any], ...]:
    data = _data()
    built: list[dict[str, Any]] = [data["base"]]
    for change in data["changes"]:  # each step builds new containers: earlier releases are never changed
        full: dict[str, Any] = {
            name: _apply_map(built[-1][name], change.get(name, {}), kind) for name, kind in _KINDS.items()
        }
        full["unimportable"] = _apply_set(built[-1]["unimportable"], change.get("unimportable", {}))
        built.append(full)
    return tuple(built)


def recording(release: str) -> dict[str, Any]:
    """The full recording of ``release`` as plain JSON values (shared: do not modify), rebuilt from the base
    and the changes; its canonical JSON is what ``digests`` hashes."""
    if release not in RELEASES:
        raise ValueError(f"{release!r} is not a recorded release; recorded: {', '.join(RELEASES)}")
    return _recordings()[RELEASES.index(release)]


@cache
def surface(version: str) -> Surface:
    """The surface of the recorded release of ``version``'s minor (see :func:`release_for`)."""
    release = release_for(version)
    full = recording(release)
    return Surface(
        release=release,
        modules={name: frozenset(names) for name, names in full["modules"].items()},
        classes={
            key: ClassInfo(tuple(info["bases"]), frozenset(info["members"]), dict(info["signatures"]))
            for key, info in full["classes"].items()
        },
        aliases=dict(full["aliases"]),
        graveyard_names=dict(full["graveyard"]),
        deprecated=dict(full["deprecated"]),
        unimportable=frozenset(full["unimportable"]),
    )


@dataclass(frozen=True)
class Removed:
    """What exists in one release and not in a later one."""

    modules: frozenset[str]
    names: frozenset[str]  # ``module.name`` public names whose module is still there
    members: frozenset[str]  # ``public.path.Class.member`` for a class still at that path


def _public_paths(s: Surface) -> dict[str, str]:
    """Each class key -> its shortest public path (then the first alphabetically)."""
    paths: dict[str, str] = {}
    for path, key in sorted([*s.aliases.items(), *((k, k) for k in s.classes)], key=lambda p: (len(p[0]), p[0])):
        parent, _, name = path.rpartition(".")
        if name in s.modules.get(parent, ()):
            paths.setdefault(key, path)
    return paths


def removed(old: str, new: str) -> Removed:
    """What release ``old`` has that ``new`` lacks: modules; public names of modules both have; and members
    of classes that both reach through the same public path (each class under its shortest such path)."""
    before, after = surface(old), surface(new)
    modules = frozenset(before.modules.keys() - after.modules.keys())
    names = frozenset(
        f"{module}.{name}"
        for module, exported in before.modules.items()
        if module in after.modules
        for name in exported - after.modules[module]
    )
    members: set[str] = set()
    for key, path in _public_paths(before).items():
        now = after.members(path)
        if now is not None:
            members.update(f"{path}.{member}" for member in before.classes[key].members - now)
    return Removed(modules, names, frozenset(members))


def arguments(signature: str | None) -> ast.arguments | None:
    """The parameters of a recorded signature (``(self, a, b=1, *args)``, always parseable: defaults that are no
    literal were recorded as ``...``); None where the signature is unknown."""
    if signature is None:
        return None
    try:
        function = ast.parse(f"def f{signature}: pass").body[0]
    except SyntaxError:
        return None
    assert isinstance(function, ast.FunctionDef)
    return function.args

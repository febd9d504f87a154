"""Phase one: a project-wide index of where the Trainer section of a config is used outside the config.

A YAML ``trainer:`` section can only be migrated together with everything that reads its keys. The index
finds, in every file given (Python, and text files that hold override strings: shell scripts, docs,
notebooks), the uses of ``<section>.<key>``:

* reads and stores on config objects: ``cfg.trainer.gpus``, ``cfg["trainer"]["gpus"]``,
  ``cfg.trainer.get("gpus")``, ``OmegaConf.select(cfg, "trainer.gpus")``, ``OmegaConf.update(...)``;
* override strings, in Python string literals and in text files: ``trainer.gpus=2``, ``+trainer.gpus=2``,
  ``--trainer.gpus 2`` (LightningCLI), and ``${trainer.gpus}`` interpolations in other YAML files;
* structured-config schemas: a class whose annotated fields mirror Trainer flags (``@dataclass class
  TrainerConf: gpus: int = 0``);
* calls that pass a config section into a Trainer together with explicit flags
  (``Trainer(strategy=X, **cfg.trainer)``, ``instantiate(cfg.trainer, plugins=[...])``), and LightningCLI's
  ``trainer_defaults={...}``, whose keys compete with the config file's trainer section.

This module holds the data model (what a file contributes, the merged project index) and the questions asked
of a use. The indexers are next to it:

* ``codemods.project.scan_file``: one file's text, dispatched on its kind (``index_text``);
* ``codemods.project.scan_text``: override strings in text files and strings, and the facts a file's text states;
* ``codemods.project.scan_yaml``: YAML configs (their Trainer sections, interpolations, strategy plugins);
* ``codemods.project.scan_python``: Python files, read with ``ast``;
* ``codemods.project.facts``: project facts read again after the scan, for the decisions only some runs make.

Everything here is plain data (frozen, hashable, picklable) so that workers receive it with their options.
Standard library only.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

from codemods.kinds import PYTHON_SUFFIXES
from codemods.project.command_scripts import command_reaches, named_primary, script_candidates, script_config_names
from codemods.project.config_chains import spelled_keys
from codemods.project.config_loads import NONE, PRIMARY, UNKNOWN, composes, packaged_away, reaches

#: ``dropped_flag``: a read passed straight to the Trainer flag of its name where the Python rules drop that flag,
#: and the read with it, so that it does not hold the key (:func:`drops_read`).
UseKind = Literal["read", "override", "interpolation", "strategy_plugin", "dropped_flag"]


#: The key under which :data:`_PLUGIN_TARGET` uses are indexed (no Trainer flag is spelled so).
STRATEGY_PLUGIN = "trainer.plugins:strategy"


@dataclass(frozen=True, order=True)
class Use:
    """One place a config key is used: ``key`` is dotted (``trainer.gpus``)."""

    key: str
    path: str
    line: int
    kind: UseKind
    #: For an override written as a command line: every Trainer override of that command, as
    #: ``(style, prefix, key, value)`` (``codemods.project.command_syntax``). Whether the command migrates together
    #: with the config is decided from it (``codemods.project.command_plans``); empty: a mention that stays.
    command: tuple[tuple[str, str, str, str], ...] = ()
    #: A read spelled ``<config>.trainer.<key>`` (attributes, loaded, not stored): renaming the attribute moves it
    #: to another key (``codemods.project.moved_reads``).
    attribute: bool = False
    #: A read where None and 0 come to the same (``if cfg.trainer.get("gpus"):``, ``cfg.trainer.gpus > 1``;
    #: ``codemods.project.zero_safe``): spelled ``<config>.trainer.get("<key>")`` (no default) it may move too, and a
    #: config's ``gpus: null`` may move with it (it reads 0 once it is ``accelerator: cpu``).
    zero_safe: bool = False
    #: For an attribute store (``cfg.trainer.gpus = 1``): the stored value's source (``codemods.project.moved_stores``).
    stored: str = ""
    #: For an override in a command line: the script the command runs, as written (``examples/asr/train.py``);
    #: the command reaches the configs that script loads (:meth:`ProjectIndex.use_reaches`).
    script: str = ""
    #: For such an override: the config groups the command may choose (``codemods.project.command_scripts``).
    picks: tuple[str, ...] = ()


@dataclass(frozen=True, order=True)
class SectionKeys:
    """A config file's top-level Trainer section (a ``trainer:`` key, or a ``trainer/`` group file): its keys
    and their values as written (one line each; a value on several lines is ``""``)."""

    path: str
    items: tuple[tuple[str, str], ...]
    #: Whether its document has a ``defaults:`` list (Hydra composes it with other configs; the rules then
    #: plan it as :attr:`codemods.plan.model.Plan.composed`).
    composed: bool = False
    #: The keys of each of its items that is a mapping (``params:`` of mmf's ``trainer:``), as written: a Trainer
    #: section one level down (``codemods.frontends.python.config_dicts``).
    nested: tuple[tuple[str, tuple[str, ...]], ...] = ()
    #: The top-level key it is under: ``trainer``, or another a project may splat (``trainer_params``).
    key: str = "trainer"


@dataclass(frozen=True, order=True)
class Schema:
    """A class that types a Trainer section: its field names and their annotations as written."""

    path: str
    line: int
    name: str
    fields: tuple[tuple[str, str], ...]
    #: Each field's default as written ("" for none), in the same order (``codemods.project.schema_plans``).
    defaults: tuple[tuple[str, str], ...] = ()

    def annotation(self, key: str) -> str | None:
        return next((text for name, text in self.fields if name == key), None)


@dataclass(frozen=True, order=True)
class Splat:
    """A call that passes ``**<section>`` (or the section itself) together with explicit keyword flags."""

    section: str
    path: str
    line: int
    keywords: tuple[str, ...]
    #: ``call``: the flags go next to the section's (a duplicate is an error); ``defaults``: LightningCLI's
    #: ``trainer_defaults``, which the config file overrides key by key (only a second strategy is a clash).
    kind: str = "call"
    #: The classes instantiated in its ``strategy=``/``plugins=`` values (``plugins=[NLPDDPPlugin()]``).
    objects: tuple[str, ...] = ()


@dataclass(frozen=True)
class FileIndex:
    """What one file contributes to the project index."""

    uses: tuple[Use, ...] = ()
    schemas: tuple[Schema, ...] = ()
    splats: tuple[Splat, ...] = ()
    sections: tuple[SectionKeys, ...] = ()
    #: What the file says about the project's tools (:data:`FACTS`).
    facts: tuple[str, ...] = ()
    #: ``((path, loads),)``: the configs a Python file loads (``codemods.project.config_loads``), if any.
    loads: tuple[tuple[str, tuple[str, ...]], ...] = ()
    #: Mappings under other top-level keys that may be Trainer sections (``trainer_params:``).
    keyed: tuple[SectionKeys, ...] = ()


#: Facts a file can contribute: the Hydra version the project requires (``hydra>=1.1``: ``++`` overrides
#: work; ``hydra<1.1``), a parser built by ``Trainer.add_argparse_args``, the project's own options of a
#: Trainer flag's name (``option:--gpus``, from ``add_argument``), a Trainer built by
#: ``Trainer.from_argparse_args`` (``argparse_namespace``: whatever its parser holds reaches the Trainer) and code
#: that may run ``Trainer.tune()`` (``tunes``: ``codemods.project.facts.may_tune``).
FACTS = ("hydra>=1.1", "hydra<1.1", "argparse_trainer", "argparse_namespace", "tunes")


@dataclass(frozen=True)
class ProjectIndex:
    """The merged, sorted index of every file given to one run."""

    uses: tuple[Use, ...] = ()
    schemas: tuple[Schema, ...] = ()
    splats: tuple[Splat, ...] = ()
    #: The folder messages name places relative to (the common folder of the files given), so that a TODO
    #: written into a file reads the same wherever the project is checked out.
    root: str = ""
    sections: tuple[SectionKeys, ...] = ()
    facts: frozenset[str] = frozenset()
    #: Each Python file's config loads (``codemods.project.config_loads``): what its uses reach.
    loads: tuple[tuple[str, tuple[str, ...]], ...] = ()
    #: Every Python file of the project: what a command's script may be (:meth:`script_files`).
    scripts: tuple[str, ...] = ()
    #: Mappings under other top-level keys (``trainer_params:``); Trainer sections where a call splats that key
    #: (:meth:`section_paths`).
    keyed_sections: tuple[SectionKeys, ...] = ()
    #: Decisions derived from the index once per run and process (``codemods.project.command_plans``).
    memo: dict[object, object] = field(default_factory=dict, compare=False, hash=False, repr=False)

    @classmethod
    def merge(cls, parts: Iterable[FileIndex], root: str = "", scripts: Iterable[str] = ()) -> ProjectIndex:
        uses: set[Use] = set()
        schemas: set[Schema] = set()
        splats: set[Splat] = set()
        sections: set[SectionKeys] = set()
        facts: set[str] = set()
        loads: set[tuple[str, tuple[str, ...]]] = set()
        keyed: set[SectionKeys] = set()
        for part in parts:
            uses.update(part.uses)
            schemas.update(part.schemas)
            splats.update(part.splats)
            sections.update(part.sections)
            facts.update(part.facts)
            loads.update(part.loads)
            keyed.update(part.keyed)
        ordered, names = tuple(sorted(sections)), sorted({section.key for section in keyed})
        return cls(
            tuple(sorted(uses)),
            tuple(sorted(schemas)),
            tuple(sorted({replace(s, section=k) for s in splats for k in spelled_keys(s.section, names)})),
            root,
            ordered,
            frozenset(facts),
            tuple(sorted(loads)),
            tuple(sorted(scripts)),
            tuple(sorted(keyed)),
        )

    def where(self, path: str) -> str:
        """``path`` relative to :attr:`root` (no line: the text may go into a TODO, and lines move)."""
        return _relative(path, self.root)

    def uses_of(self, key: str, outside: str | None = None, reaching: str | None = None) -> list[Use]:
        """Uses of ``key`` (``trainer.gpus``), those in the file ``outside`` left out; with ``reaching``, only
        those written where that config file may be loaded (:meth:`reaches`)."""
        return [
            use
            for use in self.uses
            if use.key == key and use.path != outside and (reaching is None or self.use_reaches(use, reaching))
        ]

    def use_reaches(self, use: Use, config: str) -> bool:
        """Whether ``use`` may see the config file ``config``: a command line sees what the script it runs loads
        (:meth:`script_files`); any other use, what the code of its file may see (:meth:`reaches`)."""
        scripts = self.script_files(use.script, use.path) if use.script else ()
        if not scripts and use.kind == "override" and not use.path.endswith(PYTHON_SUFFIXES):
            # an override named without its command (a notebook's prose: "`trainer.devices=1` uses one GPU")
            # is about the scripts the file's commands run, where they all run one of the project's
            borrowed = self._file_scripts(use.path)
            if borrowed:
                return any(self.reaches(script, config) for script in borrowed)
        if not scripts:
            return self.reaches(use.path, config)
        memo_key = ("command reaches", scripts, use.picks, config)
        cached = self.memo.get(memo_key)
        if isinstance(cached, bool):
            return cached
        found = False
        for script in scripts:
            loads = self._loads_of(script)
            picked, picks = named_primary(loads or (), use.picks)
            narrow = command_reaches(picked, config, picks, self._composed(picked)) if loads else None
            found = found or (narrow if narrow is not None else self.reaches(script, config))
        self.memo[memo_key] = found
        return found

    def _file_scripts(self, path: str) -> tuple[str, ...]:
        """The project scripts the commands written in the text file ``path`` run; none where one of its commands
        runs no script of the project."""
        memo_key = ("file scripts", path)
        cached = self.memo.get(memo_key)
        if isinstance(cached, tuple):
            return cached
        commands = [use for use in self.uses if use.path == path and use.command and use.script]
        found = [self.script_files(use.script, path) for use in commands]
        scripts = tuple(sorted({s for group in found for s in group})) if found and all(found) else ()
        self.memo[memo_key] = scripts
        return scripts

    def script_files(self, script: str, near: str) -> tuple[str, ...]:
        """The project's Python files a command in ``near`` runs as ``script`` (``command_scripts``); of several of
        that name, those that load a config (an entry point, not a library module of the same name)."""
        memo_key = ("script", script, near)
        cached = self.memo.get(memo_key)
        if isinstance(cached, tuple):
            return cached
        found = script_candidates(script, near, self.root, self.scripts)
        found = tuple(path for path in found if self._loads_of(path) is not None) or found
        self.memo[memo_key] = found
        return found

    def splats_of(self, section: str, reaching: str | None = None) -> list[Splat]:
        last = section.rpartition(".")[2]
        return [
            splat
            for splat in self.splats
            if splat.section.rpartition(".")[2] == last and (reaching is None or self.reaches(splat.path, reaching))
        ]

    def strategy_beside(self, section: str, config: str, strategies: frozenset[str]) -> bool:
        """Whether every call that takes the section ``section`` of ``config`` also passes a strategy object
        (``Trainer(plugins=[DDPPlugin()], **cfg.trainer)``, LightningCLI's ``trainer_defaults={"plugins": ...}``):
        1.5 ran that object, and a strategy name in the section (``accelerator: ddp``) did nothing. ``strategies``:
        the strategy classes by name (Lightning's and the project's own subclasses)."""
        splats = self.splats_of(section, reaching=config)
        # The scripts that load this config by name speak for it; code that may see any config (a library
        # module, a load of a path the user passes) does not (MIGRATION.md, "Trainer sections beside a strategy").
        named = [splat for splat in splats if self.names(splat.path, config)]
        splats = named or splats
        return bool(splats) and all(any(name in strategies for name in splat.objects) for splat in splats)

    def _loads_of(self, path: str) -> tuple[str, ...] | None:
        """The configs the Python file ``path`` loads (None: it records no load), from a dict built once."""
        found = self.memo.get(("loads",))
        if not isinstance(found, dict):
            found = dict(self.loads)
            self.memo[("loads",)] = found
        loads = found.get(path)
        return loads if isinstance(loads, tuple) else None

    def names(self, path: str, config: str) -> bool:
        """Whether the Python file ``path`` loads ``config`` by a name it spells (a Hydra primary config or group,
        a literal path), not only as any config it may be handed."""
        loads = self._loads_of(path)
        if not loads:
            return False
        known = tuple(load for load in loads if load != UNKNOWN)
        return bool(known) and known != (NONE,) and self.reaches_through(known, path, config)

    def reaches_through(self, loads: tuple[str, ...], path: str, config: str) -> bool:
        found = reaches(loads, config, self.root, self.config_names(path), self._composed(loads))
        return found and not packaged_away(loads, config, self.facts)

    @staticmethod
    def _composed(loads: tuple[str, ...]) -> bool:
        return any(composes(load[len(PRIMARY) :]) for load in loads if load.startswith(PRIMARY))

    def reaches(self, path: str, config: str) -> bool:
        """Whether code in ``path`` may see the config file ``config``: where ``path`` is a Python file that
        loads configs it names (``@hydra.main(config_path="conf")``), only those; anything else may see every
        config (a library module, a command in a doc, a load of a path in a variable)."""
        if not self.loads:
            return True
        loads = self._loads_of(path)
        if loads is None:
            return True
        # asked for every use and splat against every section by the guard, the plans and the moved reads
        memo_key = ("reaches", path, config)
        cached = self.memo.get(memo_key)
        if not isinstance(cached, bool):
            cached = self.memo[memo_key] = self.reaches_through(loads, path, config)
        return cached

    def config_names(self, path: str) -> frozenset[str]:
        """The config names the project's commands pick with Hydra's ``--config-name`` for the script ``path``,
        whatever folder a ``--config-path`` next to them names (a folder under the script's config folder is reached
        anyway; one outside it was never reached by its loads): ``script_config_names``."""
        return script_config_names(self.facts, path)

    def _names_a_schema(self, path: str) -> bool:
        """Whether the file's code names one of the project's Trainer-mirroring classes (``TrainerConfig``), or a
        class typed with one: it may build its config on them (``update_model_config(MTEncDecConfig(), cfg)``)."""
        memo_key = ("names_a_schema", path)
        cached = self.memo.get(memo_key)
        if isinstance(cached, bool):
            return cached
        try:
            with open(path, encoding="utf-8", errors="replace") as handle:
                text = handle.read()
        except OSError:
            text = ""
        found = any(re.search(rf"\b{re.escape(schema.name)}\b", text) for schema in self.schemas)
        self.memo[memo_key] = found
        return found

    def loads_own(self, path: str) -> bool:
        """Whether the Python file ``path`` loads the configs it names (``@hydra.main(config_path="conf")``,
        ``OmegaConf.load("conf/a.yaml")``): its reads see those, not an object some other code built or stored into."""
        return any(loaded == path and loads != (NONE,) for loaded, loads in self.loads)

    def schema_free(self, path: str) -> bool:
        """Whether code in ``path`` sees only YAML configs that no structured schema shapes: it loads the configs it
        names (``@hydra.main(config_path="conf")``), none of those composes others (a ``defaults:`` list may
        name a schema a ``ConfigStore`` registered), and it names no schema itself. Anything else may read a
        schema's defaults."""
        if not self.loads_own(path) or self._names_a_schema(path) or self._composed(self._loads_of(path) or ()):
            return False  # (a primary config that is no file is a ConfigStore node: a schema)
        return not any(section.composed and self.reaches(path, section.path) for section in self.sections)

    def section_paths(self) -> frozenset[tuple[str, ...]]:
        """The key paths of the config mappings the project passes to a Trainer under a key other than
        ``trainer`` (``("trainer_params",)``, ``("trainer", "kwargs")``): Trainer sections wherever they appear."""
        return frozenset(
            tuple(splat.section.split("."))
            for splat in self.splats
            if splat.section != "trainer" and splat.kind == "call"
        )


def _relative(path: str, root: str) -> str:
    if not root:
        return path
    try:
        return os.path.relpath(path, root).replace(os.sep, "/")
    except ValueError:  # another drive (Windows)
        return path


def describe(uses: Sequence[Use], root: str = "", limit: int = 2) -> str:
    """``src/train.py, scripts/run.sh and 4 more files``, relative to ``root``.

    Files, not lines: the text goes into a TODO comment, and a line number would change as soon as a run
    inserts a line above the use (then a second run would write the TODO again).
    """
    files = list(dict.fromkeys(_relative(use.path, root) for use in uses))
    rest = len(files) - limit
    return ", ".join(files[:limit]) + (f" and {rest} more file{'s' if rest > 1 else ''}" if rest > 0 else "")

"""Phase one: a project-wide index of where the Trainer section of a config is used outside the config.

A YAML ``trainer:`` section can only be migrated together with everything that reads its keys. This module
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

Everything here is plain data (frozen, hashable, picklable) so that workers receive it with their options.
Python is read with ``ast``: comments, strings and docstrings never look like a use (override strings are only
taken from real string literals). Standard library only.
"""

from __future__ import annotations

import ast
import os
import re
from bisect import bisect_right
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Literal

from codemods.index_facts import MOVES, TUNE_FLAGS, UNSET_READS, never_tunes
from codemods.overrides.syntax import TODO_MARK, commands
from legacy_api.renames import STRATEGY_CLASSES

#: ``dropped_flag``: a read passed straight to the Trainer flag of its name where the Python rules drop that flag,
#: and the read with it, so that it does not hold the key (:func:`drops_read`).
UseKind = Literal["read", "override", "interpolation", "strategy_plugin", "dropped_flag"]

#: Attribute roots that are Trainer objects (``self.trainer.gpus`` is a Trainer property, not a config key).
_TRAINER_OWNERS = frozenset({"self", "pl_module", "module", "model", "lightning_module", "cls"})
#: Trainer flags that a schema must mention for its class to count as a Trainer section's schema.
SCHEMA_MARKERS = frozenset(
    {"gpus", "tpu_cores", "ipus", "num_processes", "distributed_backend", "accelerator", "strategy", "devices"}
)
_SCHEMA_COMPANIONS = frozenset(
    {"max_epochs", "max_steps", "precision", "num_nodes", "accumulate_grad_batches", "gradient_clip_val"}
    | {"check_val_every_n_epoch", "log_every_n_steps", "val_check_interval", "min_epochs", "deterministic"}
    | {"benchmark", "fast_dev_run", "limit_train_batches", "amp_backend", "amp_level", "plugins"}
)
_OVERRIDE = re.compile(r"(?<![\w.$/{-])(?:\+\+|\+|--)?(trainer)\.(\w+)(?=\s*=|\s+\S|\s*$|[\"',\]])", re.MULTILINE)
#: A strategy plugin named in a config (``class_path: pytorch_lightning.plugins.DeepSpeedPlugin``, a Hydra
#: ``_target_``): Hydra may compose it into a trainer section of another file.
_PLUGIN_TARGET = re.compile(
    r"(?:_target_|class_path)\s*:\s*[\"']?pytorch_lightning\.(?:plugins|strategies)(?:\.\w+)*\.(\w+(?:Plugin|Strategy))\b"
)
#: The key under which :data:`_PLUGIN_TARGET` uses are indexed (no Trainer flag is spelled so).
STRATEGY_PLUGIN = "trainer.plugins:strategy"
_OWN_TRAINER = re.compile(r"^trainer\s*:", re.MULTILINE)
_INTERPOLATION = re.compile(r"\$\{\s*(trainer)\.(\w+)\s*\}")
#: ``${train.trainer.gpus}``: a Trainer section under another key, so never the file's own top-level one.
_NESTED_INTERPOLATION = re.compile(r"\$\{\s*(?:[\w-]+\.)+(trainer)\.(\w+)\s*\}")
#: What a Python file that does not parse (a cookiecutter template's ``{{ ... }}``) may say of a config key:
#: ``cfg.trainer.gpus``, ``cfg["trainer"]["gpus"]``, ``cfg.trainer["gpus"]``. Text, so a use that holds the key
#: (``self.trainer.gpus`` too: it cannot be told from a config here), never one that moves.
_UNPARSED_PYTHON_USE = re.compile(r"""(?:\btrainer|\[\s*["']trainer["']\s*\])(?:\.|\s*\[\s*["'])(\w+)""")
#: Text files whose override strings count as uses (shell scripts, docs, notebooks, make/CI files).
#: (Notebooks are migrated, not only indexed: ``codemods.notebooks``; their override strings count all the same.)
TEXT_SUFFIXES = (".sh", ".bash", ".zsh", ".md", ".rst", ".txt", ".cfg", ".ini", ".toml", ".json")
TEXT_NAMES = ("Makefile", "Dockerfile", "Justfile")
#: Callees that take a Trainer section and keyword flags next to it.
_TRAINER_CALLEES = frozenset({"Trainer", "instantiate", "call", "from_argparse_args", "Runner"})


@dataclass(frozen=True, order=True)
class Use:
    """One place a config key is used: ``key`` is dotted (``trainer.gpus``)."""

    key: str
    path: str
    line: int
    kind: UseKind
    #: For an override written as a command line: every Trainer override of that command, as
    #: ``(style, prefix, key, value)`` (``codemods.overrides.syntax``). Whether the command migrates together
    #: with the config is decided from it (``codemods.overrides.decide``); empty: a mention that stays.
    command: tuple[tuple[str, str, str, str], ...] = ()
    #: A read spelled ``<config>.trainer.<key>`` (attributes, loaded, not stored): renaming the attribute moves it
    #: to another key (``codemods.moved_reads``).
    attribute: bool = False


@dataclass(frozen=True, order=True)
class SectionKeys:
    """A config file's top-level Trainer section (a ``trainer:`` key, or a ``trainer/`` group file): its keys
    and their values as written (one line each; a value on several lines is ``""``)."""

    path: str
    items: tuple[tuple[str, str], ...]
    #: Whether its document has a ``defaults:`` list (Hydra composes it with other configs; the rules then
    #: plan it as :attr:`codemods.plan.Plan.composed`).
    composed: bool = False


@dataclass(frozen=True, order=True)
class Schema:
    """A class that types a Trainer section: its field names and their annotations as written."""

    path: str
    line: int
    name: str
    fields: tuple[tuple[str, str], ...]

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


@dataclass(frozen=True)
class FileIndex:
    """What one file contributes to the project index."""

    uses: tuple[Use, ...] = ()
    schemas: tuple[Schema, ...] = ()
    splats: tuple[Splat, ...] = ()
    sections: tuple[SectionKeys, ...] = ()
    #: What the file says about the project's tools (:data:`FACTS`).
    facts: tuple[str, ...] = ()


#: Facts a file can contribute: the Hydra version the project requires (``hydra>=1.1``: ``++`` overrides
#: work; ``hydra<1.1``), a parser built by ``Trainer.add_argparse_args``, the project's own options of a
#: Trainer flag's name (``option:--gpus``, from ``add_argument``), a Trainer built by
#: ``Trainer.from_argparse_args`` (``argparse_namespace``: whatever its parser holds reaches the Trainer) and code
#: that may run ``Trainer.tune()`` (``tunes``: ``codemods.index_facts.may_tune``).
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
    #: Decisions derived from the index once per run and process (``codemods.overrides.decide``).
    memo: dict[object, object] = field(default_factory=dict, compare=False, hash=False, repr=False)

    @classmethod
    def merge(cls, parts: Iterable[FileIndex], root: str = "") -> ProjectIndex:
        uses: set[Use] = set()
        schemas: set[Schema] = set()
        splats: set[Splat] = set()
        sections: set[SectionKeys] = set()
        facts: set[str] = set()
        for part in parts:
            uses.update(part.uses)
            schemas.update(part.schemas)
            splats.update(part.splats)
            sections.update(part.sections)
            facts.update(part.facts)
        ordered = tuple(sorted(sections))
        return cls(tuple(sorted(uses)), tuple(sorted(schemas)), tuple(sorted(splats)), root, ordered, frozenset(facts))

    def where(self, path: str) -> str:
        """``path`` relative to :attr:`root` (no line: the text may go into a TODO, and lines move)."""
        return _relative(path, self.root)

    def uses_of(self, key: str, outside: str | None = None) -> list[Use]:
        """Uses of ``key`` (``trainer.gpus``), those in the file ``outside`` left out."""
        return [use for use in self.uses if use.key == key and use.path != outside]

    def splats_of(self, section: str) -> list[Splat]:
        last = section.rpartition(".")[2]
        return [splat for splat in self.splats if splat.section == last]


# --- text ---------------------------------------------------------------------------------------------------
def _line_starts(text: str) -> list[int]:
    starts = [0]
    starts.extend(match.end() for match in re.finditer(r"\n", text))
    return starts


def _line_of(starts: Sequence[int], offset: int) -> int:
    return bisect_right(starts, offset)


def text_uses(text: str, path: str, interpolations: bool = False) -> list[Use]:
    """Override strings (and, when asked, ``${trainer.x}`` interpolations) in a text file.

    Each mention of ``trainer.<key>`` that looks like an override is a use; one that is a token of a command
    line (``codemods.overrides.syntax``) carries that command, so that the run can tell an override that
    migrates with the config from one that stays.
    """
    if "trainer" not in text:
        return []
    if TODO_MARK in text:  # this tool's own TODOs name the keys they are about: blank them, keeping offsets
        text = re.sub(rf"^.*{re.escape(TODO_MARK)}.*$", lambda m: " " * len(m.group()), text, flags=re.MULTILINE)
    starts = _line_starts(text)
    command_at: dict[int, tuple[tuple[str, str, str, str], ...]] = {}
    for _, _, found in commands(text):
        items = tuple(token.item for token in found if token.style != "argparse")
        command_at.update((token.start, items) for token in found)
    found_uses = [
        Use(
            f"{m.group(1)}.{m.group(2)}",
            path,
            _line_of(starts, m.start()),
            "override",
            command_at.get(m.start(), ()),
        )
        for m in _OVERRIDE.finditer(text)
    ]
    if interpolations:
        found_uses.extend(
            Use(f"{m.group(1)}.{m.group(2)}", path, _line_of(starts, m.start()), "interpolation")
            for m in _INTERPOLATION.finditer(text)
        )
    found_uses.extend(
        Use(f"{m.group(1)}.{m.group(2)}", path, _line_of(starts, m.start()), "interpolation")
        for m in _NESTED_INTERPOLATION.finditer(text)
    )
    return found_uses


_HYDRA_PIN = re.compile(r"hydra[-_]core\s*(==|>=|~=|>|<=|<)\s*(\d+)\.(\d+)", re.IGNORECASE)
_ARGPARSE_TRAINER = re.compile(r"Trainer\s*\.\s*add_argparse_args\s*\(")
_ARGPARSE_NAMESPACE = re.compile(r"Trainer\s*\.\s*from_argparse_args\s*\(")
_OWN_OPTION = re.compile(
    r"add_argument\(\s*[\"'](--(?:gpus|tpu_cores|ipus|num_processes|distributed_backend|accelerator"
    r"|amp_backend|amp_level|precision|strategy|devices|num_nodes))[\"']"
)


_REQUIREMENTS = re.compile(
    r"(?:^|/)(?:requirements[^/]*\.(?:txt|in|ya?ml)|setup\.(?:py|cfg)|pyproject\.toml|environment[^/]*\.ya?ml|Pipfile)$"
)


def text_facts(text: str, path: str = "") -> tuple[str, ...]:
    """:data:`FACTS` a file's text states: a ``hydra-core`` requirement (in a requirements file, ``setup.py``,
    ``pyproject.toml``, a conda environment: a doc's example pin is no requirement), ``++`` overrides or
    ``_self_`` in a defaults list (both new in Hydra 1.1), ``Trainer.add_argparse_args``, a project option
    named like a flag."""
    facts: set[str] = set()
    if "ydra" in text and _REQUIREMENTS.search(path.replace("\\", "/")):
        for match in _HYDRA_PIN.finditer(text):
            version = (int(match.group(2)), int(match.group(3)))
            operator = match.group(1)
            if operator in (">=", "==", "~=", ">"):
                facts.add("hydra>=1.1" if version >= (1, 1) else "hydra<1.1")
            elif version <= (1, 1):
                facts.add("hydra<1.1")
    if "++trainer." in text or re.search(r"^\s*-\s*_self_\s*$", text, re.MULTILINE):
        facts.add("hydra>=1.1")
    if "add_argparse_args" in text and _ARGPARSE_TRAINER.search(text):
        facts.add("argparse_trainer")
    if "from_argparse_args" in text and _ARGPARSE_NAMESPACE.search(text):
        facts.add("argparse_namespace")
    if "add_argument" in text:
        facts.update(f"option:{match.group(1)}" for match in _OWN_OPTION.finditer(text))
    return tuple(sorted(facts))


_TOP_KEY = re.compile(r"^([A-Za-z_]\w*)\s*:(?:\s+(.*?))?\s*$")


_DOCUMENT_MARK = re.compile(r"^(?:---|\.\.\.)(?:\s|$)")
_DEFAULTS = re.compile(r"^defaults\s*:")


def _documents(code: str) -> list[list[str]]:
    """The lines of each document of a YAML stream (``---`` starts one, ``...`` ends one)."""
    documents: list[list[str]] = [[]]
    for line in code.split("\n"):
        if _DOCUMENT_MARK.match(line):
            documents.append([])
        else:
            documents[-1].append(line)
    return [lines for lines in documents if any(line.strip() for line in lines)]


def yaml_sections(code: str, path: str) -> list[SectionKeys]:
    """The top-level Trainer sections of a config (comments already removed): a ``trainer/`` group file's
    top-level keys, or the keys one level under a top-level ``trainer:``, in each document of the stream."""
    parts = path.replace("\\", "/").split("/")
    group = len(parts) >= 2 and parts[-2] == "trainer"
    found: list[SectionKeys] = []
    for lines in _documents(code)[:1] if group else _documents(code):
        composed = any(_DEFAULTS.match(line) for line in lines)
        if group:
            body, indent = lines, 0
        else:
            start = next((i for i, line in enumerate(lines) if re.match(r"^trainer\s*:\s*$", line)), None)
            if start is None:
                continue
            body = []
            for line in lines[start + 1 :]:
                if line.strip() and not line[:1].isspace():
                    break
                body.append(line)
            indents = [len(line) - len(line.lstrip(" ")) for line in body if line.strip()]
            if not indents:
                continue
            indent = min(indents)
        items: list[tuple[str, str]] = []
        for line in body:
            if not line.strip() or len(line) - len(line.lstrip(" ")) != indent:
                continue
            match = _TOP_KEY.match(line[indent:])
            if match and match.group(1) not in ("defaults", "_target_"):
                items.append((match.group(1), match.group(2) or ""))
        if items:
            found.append(SectionKeys(path, tuple(items), composed))
    return found


def _without_comments(line: str) -> str:
    """A YAML line up to its comment: a ``#`` at the start or after a blank, outside quotes."""
    quote = ""
    for index, char in enumerate(line):
        if quote:
            if char == quote:
                quote = ""
        elif char in "\"'":
            quote = char
        elif char == "#" and (index == 0 or line[index - 1] in " \t"):
            return line[:index]
    return line


def yaml_uses(text: str, path: str) -> FileIndex:
    """A YAML file's ``${trainer.x}`` interpolations and override lists (Hydra ``overrides:``, test configs).

    Comments are not uses: a TODO this tool wrote (which names ``trainer.gpus``) must not block the next run.
    """
    code = "\n".join(_without_comments(line) for line in text.split("\n"))
    # ${trainer.x} in a file with its own trainer section refers to that section, which migrates it in step.
    own_section = _OWN_TRAINER.search(code) is not None
    uses = text_uses(code, path, interpolations=not own_section)
    found = yaml_sections(code, path) if own_section or "/trainer/" in f"/{path}" else []
    if "Plugin" in code or "Strategy" in code:
        starts = _line_starts(code)
        # Only a plugin outside any trainer section counts: one inside a section moves to its strategy with it.
        in_group = "plugins" in path.replace("\\", "/").split("/")[:-1]
        trainer_file = own_section or "Trainer" in code or "/trainer/" in f"/{path}"
        uses.extend(
            Use(STRATEGY_PLUGIN, path, _line_of(starts, match.start()), "strategy_plugin")
            for match in _PLUGIN_TARGET.finditer(code)
            if match.group(1) in STRATEGY_CLASSES
            and (in_group or (not trainer_file and _under_plugins(code, match.start())))
        )
    return FileIndex(uses=tuple(uses), sections=tuple(found), facts=text_facts(code, path))


def _under_plugins(code: str, offset: int) -> bool:
    """Whether the line at ``offset`` sits in a ``plugins:`` block (its nearest less indented key is ``plugins``)."""
    lines = code[:offset].split("\n")
    current = lines[-1] if lines else ""
    indent = len(current) - len(current.lstrip(" -"))
    for line in reversed(lines[:-1]):
        stripped = line.strip()
        if not stripped:
            continue
        depth = len(line) - len(line.lstrip(" -"))
        if depth < indent or (
            depth == indent and not line.lstrip().startswith("-") and current.lstrip().startswith("-")
        ):
            return stripped.startswith("plugins:")
    return False


# --- Python --------------------------------------------------------------------------------------------------
def _chain(node: ast.expr) -> list[str] | None:
    """``cfg.trainer["gpus"].x`` -> ["cfg", "trainer", "gpus", "x"]; None for anything else."""
    parts: list[str] = []
    while True:
        if isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        elif isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
            if not isinstance(node.slice.value, str):
                return None
            parts.append(node.slice.value)
            node = node.value
        elif isinstance(node, ast.Name):
            parts.append(node.id)
            return list(reversed(parts))
        else:
            return None


def _attribute_read(node: ast.expr, name: str) -> bool:
    """Whether the outermost chain ``node`` holds ``<...>.trainer.<name>`` as attributes, in a load."""
    while isinstance(node, ast.Attribute | ast.Subscript):
        if isinstance(node, ast.Attribute) and node.attr == name and isinstance(node.value, ast.Attribute):
            return node.value.attr == "trainer" and isinstance(node.ctx, ast.Load)
        node = node.value
    return False


def config_key(chain: Sequence[str]) -> str | None:
    """:func:`_config_key`, for the Python rules: they must take for a config key exactly what the index does."""
    return _config_key(chain)


def _config_key(chain: Sequence[str]) -> str | None:
    """``cfg.trainer.gpus`` -> ``trainer.gpus`` when the ``trainer`` is a config node, not a Trainer object."""
    for index in range(1, len(chain) - 1):
        if chain[index] != "trainer":
            continue
        owner = chain[index - 1]
        if index == 1 and owner in _TRAINER_OWNERS:
            return None  # self.trainer.gpus: the Trainer's property
        return f"trainer.{chain[index + 1]}"
    return None


def _annotation(node: ast.expr | None) -> str:
    return ast.unparse(node) if node is not None else ""


class _PythonIndexer(ast.NodeVisitor):
    def __init__(self, path: str) -> None:
        self.path = path
        self.uses: list[Use] = []
        self.schemas: list[Schema] = []
        self.splats: list[Splat] = []

    def _use(self, key: str, node: ast.AST, kind: UseKind = "read", attribute: bool = False) -> None:
        self.uses.append(Use(key, self.path, getattr(node, "lineno", 1), kind, attribute=attribute))

    def visit_Attribute(self, node: ast.Attribute) -> None:
        self._access(node)

    def visit_Subscript(self, node: ast.Subscript) -> None:
        self._access(node)

    def _access(self, node: ast.Attribute | ast.Subscript) -> None:
        chain = _chain(node)
        if chain is not None:
            key = _config_key(chain)
            if key is not None:
                self._use(key, node, attribute=_attribute_read(node, key.partition(".")[2]))
                return  # the outermost chain says it all
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        skip: set[int] = set()
        # cfg.trainer.get("gpus"): a read of trainer.gpus (and not of a key called "get")
        if name in ("get", "pop", "setdefault") and isinstance(func, ast.Attribute) and node.args:
            chain = _chain(func.value)
            first = node.args[0]
            owner = chain is not None and len(chain) == 2 and chain[0] in _TRAINER_OWNERS
            if chain is not None and chain[-1] == "trainer" and not owner:
                if isinstance(first, ast.Constant) and isinstance(first.value, str):
                    self._use(f"trainer.{first.value}", node)
                skip.add(id(func))
        # getattr(cfg.trainer, "gpus") / hasattr(...) / setattr(...): the key as text
        if name in ("getattr", "hasattr", "setattr", "delattr") and len(node.args) >= 2:
            chain, text = _chain(node.args[0]), node.args[1]
            attr = text.value if isinstance(text, ast.Constant) and isinstance(text.value, str) else None
            if chain is not None and chain[-1] == "trainer" and attr is not None and _config_key([*chain, attr]):
                self._use(f"trainer.{attr}", node)
        # OmegaConf.select(cfg, "trainer.gpus") / OmegaConf.update(cfg, "trainer.gpus", value)
        if name in ("select", "update") and len(node.args) >= 2:
            key = node.args[1]
            if isinstance(key, ast.Constant) and isinstance(key.value, str) and key.value.startswith("trainer."):
                self._use(key.value, node)
                skip.add(id(key))
        if name in _TRAINER_CALLEES or name.endswith("Trainer"):  # flash.Trainer, a project's MyTrainer
            self._splat(node)
            for keyword in _dropped_reads(node, name):
                self._use(f"trainer.{keyword.arg}", keyword.value, "dropped_flag")
                skip.add(id(keyword))
        elif name.endswith("CLI"):
            self._trainer_defaults(node)
        for child in ast.iter_child_nodes(node):
            if id(child) not in skip:
                self.visit(child)

    def _splat(self, node: ast.Call) -> None:
        sections: list[str] = []
        for keyword in node.keywords:
            if keyword.arg is None:
                sections.extend(self._sections(keyword.value))
        for arg in node.args:
            sections.extend(self._sections(arg))
        explicit = tuple(sorted(k.arg for k in node.keywords if k.arg is not None))
        for section in sections:
            self.splats.append(Splat(section, self.path, node.lineno, explicit))

    def _trainer_defaults(self, node: ast.Call) -> None:
        """``LightningCLI(trainer_defaults={"plugins": ...})``: the config file's trainer section overrides these
        keys, so the section must not gain a flag that competes with them (a second strategy)."""
        for keyword in node.keywords:
            if keyword.arg != "trainer_defaults":
                continue
            value = keyword.value
            keys: list[str] = []
            if isinstance(value, ast.Dict):
                keys = [k.value for k in value.keys if isinstance(k, ast.Constant) and isinstance(k.value, str)]
            elif isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "dict":
                keys = [k.arg for k in value.keywords if k.arg is not None]
            if keys:
                self.splats.append(Splat("trainer", self.path, node.lineno, tuple(sorted(keys)), "defaults"))

    def _sections(self, node: ast.expr) -> list[str]:
        """``cfg.trainer`` / ``cfg["trainer"]`` / ``OmegaConf.to_container(cfg.trainer)`` -> ["trainer"]."""
        if isinstance(node, ast.Call) and node.args:
            node = node.args[0]
        chain = _chain(node)
        if chain is not None and len(chain) >= 2 and chain[-1] == "trainer" and chain[0] not in _TRAINER_OWNERS:
            return ["trainer"]
        return []

    def visit_Constant(self, node: ast.Constant) -> None:
        if isinstance(node.value, str) and "trainer." in node.value:
            for use in text_uses(node.value, self.path):
                self.uses.append(Use(use.key, self.path, node.lineno + use.line - 1, "override", use.command))

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        fields = tuple(
            (statement.target.id, _annotation(statement.annotation))
            for statement in node.body
            if isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name)
        )
        names = {name for name, _ in fields}
        if names & SCHEMA_MARKERS and names & _SCHEMA_COMPANIONS:
            self.schemas.append(Schema(self.path, node.lineno, node.name, fields))
        self.generic_visit(node)


def _literal(node: ast.expr) -> object:
    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None


def _dropped_reads(node: ast.Call, name: str) -> list[ast.keyword]:
    """The flags of a Trainer call that the Python rules drop together with the config read they pass on: a
    tuning flag (``auto_lr_find=cfg.trainer.auto_lr_find``; dropped where nothing in the project tunes) and
    ``auto_select_gpus`` in a call that shows it passes no ``devices=`` and no ``gpus=`` but a list or a string
    (1.5 read it only next to an int ``gpus=``: ``codemods.rules.auto_select_gpus``)."""
    if not name.endswith("Trainer"):
        return []  # instantiate(cfg.trainer, ...), Trainer.from_argparse_args(...): not a call the rules rebuild
    names = {keyword.arg for keyword in node.keywords}
    visible = None not in names and not any(isinstance(arg, ast.Starred) for arg in node.args)
    gpus = next((keyword.value for keyword in node.keywords if keyword.arg == "gpus"), None)
    # no gpus=, or one 1.5 did not pick for: a list or a string
    unpicked = gpus is None or isinstance(_literal(gpus), list | tuple | str)
    found = []
    for keyword in node.keywords:
        chain = _chain(keyword.value)
        if chain is None or _config_key(chain) != f"trainer.{keyword.arg}":
            continue
        if keyword.arg in TUNE_FLAGS or (
            keyword.arg == "auto_select_gpus" and visible and unpicked and "devices" not in names
        ):
            found.append(keyword)
    return found


def movable_read(use: Use) -> bool:
    """A read the rule ``config_reads`` could move to another key: ``cfg.trainer.gpus``, spelled with attributes."""
    return use.kind == "read" and use.attribute and use.key.partition(".")[2] in MOVES


def removed_flag_read(use: Use) -> bool:
    """A read of a flag the target may refuse (``cfg.trainer.gpus``): the rule ``config_reads`` moves it or, where
    nothing sets the key, writes its TODO (``codemods.moved_reads``)."""
    return use.kind == "read" and use.key.partition(".")[2] in UNSET_READS


def drops_read(use: Use, index: ProjectIndex) -> bool:
    """Whether the Python rules drop this use of a key in this run (it then holds nothing back)."""
    if use.kind != "dropped_flag":
        return False
    return use.key.partition(".")[2] not in TUNE_FLAGS or never_tunes(index)


def python_index(tree: ast.Module, path: str, facts: tuple[str, ...] = ()) -> FileIndex:
    """What a parsed Python file contributes to the project index."""
    indexer = _PythonIndexer(path)
    indexer.visit(tree)
    return FileIndex(tuple(indexer.uses), tuple(indexer.schemas), tuple(indexer.splats), facts=facts)


def index_text(text: str, path: str) -> FileIndex:
    """Index one file's text, dispatching on its kind; a Python file that does not parse contributes nothing."""
    plugin_config = path.endswith((".yaml", ".yml")) and ("Plugin" in text or "Strategy" in text)
    facts = text_facts(text, path) if "ydra" in text or "add_a" in text else ()
    group_file = path.endswith((".yaml", ".yml")) and "/trainer/" in f"/{path}"
    if "rainer" not in text and not plugin_config and not group_file:  # a group file's keys need no "trainer"
        return FileIndex(facts=facts)
    if path.endswith((".py", ".pyi")):
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            # Not rewritten (phase two reports it), but what it mentions still holds the config's keys.
            starts = _line_starts(text)
            uses = tuple(
                Use(f"trainer.{m.group(1)}", path, _line_of(starts, m.start()), "read")
                for m in _UNPARSED_PYTHON_USE.finditer(text)
            )
            return FileIndex(uses=uses, facts=facts)
        return python_index(tree, path, facts)
    if path.endswith((".yaml", ".yml")):
        return yaml_uses(text, path)
    return FileIndex(uses=tuple(text_uses(text, path)), facts=text_facts(text, path))


def is_text_file(path: str) -> bool:
    """Text files the project index reads (their command lines are migrated: ``codemods.overrides``)."""
    name = path.rpartition("/")[2]
    return path.endswith(TEXT_SUFFIXES) or name in TEXT_NAMES


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


def iter_keys(uses: Iterable[Use]) -> Iterator[str]:
    return iter(sorted({use.key for use in uses}))

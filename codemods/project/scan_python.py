"""The project index's Python files: config reads and stores, override strings, schemas and section splats.

Python is read with ``ast``: comments, strings and docstrings never look like a use (override strings are only
taken from real string literals). Standard library only.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Sequence
from dataclasses import replace

from codemods.project.config_chains import TRAINER_OWNERS as _TRAINER_OWNERS
from codemods.project.config_chains import assignments, computed_key, keyed_load, other_section_key, trainer_object
from codemods.project.config_chains import attribute_read as _attribute_read
from codemods.project.config_chains import chain as _chain
from codemods.project.config_chains import config_key as _config_key
from codemods.project.config_loads import config_loads
from codemods.project.index import FileIndex, Schema, Splat, Use, UseKind
from codemods.project.keys import TUNE_FLAGS
from codemods.project.scan_text import text_uses
from codemods.project.string_chains import chain_scripts
from codemods.project.zero_safe import zero_safe
from legacy_api.removed_arguments import REMOVED_ARGUMENTS

#: Trainer flags that a schema must mention for its class to count as a Trainer section's schema.
SCHEMA_MARKERS = frozenset(
    {"gpus", "tpu_cores", "ipus", "num_processes", "distributed_backend", "accelerator", "strategy", "devices"}
)
_SCHEMA_COMPANIONS = frozenset(
    {"max_epochs", "max_steps", "precision", "num_nodes", "accumulate_grad_batches", "gradient_clip_val"}
    | {"check_val_every_n_epoch", "log_every_n_steps", "val_check_interval", "min_epochs", "deterministic"}
    | {"benchmark", "fast_dev_run", "limit_train_batches", "amp_backend", "amp_level", "plugins"}
)


#: The Trainer flags a section's migration may change (moved, renamed or dropped): a read of one under any key is
#: recorded (:func:`_other_section_key`).
SECTION_FLAGS = SCHEMA_MARKERS | frozenset(
    {"amp_backend", "amp_level", "plugins", "replace_sampler_ddp", "resume_from_checkpoint", "checkpoint_callback"}
    | {"progress_bar_refresh_rate", "weights_summary", "terminate_on_nan", "log_gpu_memory", "flush_logs_every_n_steps"}
    | {"prepare_data_per_node", "stochastic_weight_avg", "process_position", "max_steps", "auto_select_gpus"}
)

#: How many assignments back a splatted name is followed to the config it holds.
_HOPS = 3
#: Callees that take a Trainer section and keyword flags next to it.
_TRAINER_CALLEES = frozenset({"Trainer", "instantiate", "call", "from_argparse_args", "Runner"})


def mirrors_trainer(fields: set[str]) -> bool:
    """Whether a class with these annotated fields types a Trainer section (``@dataclass class TrainerConf``)."""
    return bool(fields & SCHEMA_MARKERS and fields & _SCHEMA_COMPANIONS)


#: Trainer arguments 1.5 took and later releases removed, as a schema's field names (``schema_fields``).
REMOVED_FIELDS = tuple(
    sorted(
        {row.name for row in REMOVED_ARGUMENTS}
        | {"gpus", "tpu_cores", "ipus", "num_processes", "distributed_backend", "amp_backend", "amp_level"}
        | {"auto_select_gpus", "replace_sampler_ddp"}
    )
)
_REMOVED_FIELD = re.compile(r"^[ \t]+(?:" + "|".join(REMOVED_FIELDS) + r")[ \t]*:[ \t]*[\w\"'\[]", re.M)


def defines_schema_field(text: str) -> bool:
    """Whether ``text`` may define a Trainer-mirroring class with a removed argument as a field (``gpus: int``):
    rule ``schema_fields`` then has work in a file that may never import Lightning."""
    return "class" in text and _REMOVED_FIELD.search(text) is not None


def _other_section_key(chain: Sequence[str]) -> str | None:
    """``config["trainer_params"]["gpus"]`` -> ``trainer_params.gpus`` (:func:`other_section_key` for any of
    :data:`SECTION_FLAGS`)."""
    return other_section_key(chain, SECTION_FLAGS)


def _annotation(node: ast.expr | None) -> str:
    return ast.unparse(node) if node is not None else ""


#: The line ends Python's tokenizer knows (``str.splitlines`` knows more).
_NEWLINE = re.compile(r"\r\n?|\n")


class _PythonIndexer(ast.NodeVisitor):
    def __init__(self, path: str, tree: ast.Module | None = None, source: str = "") -> None:
        self.path = path
        self.source = source
        self._lines: list[str] | None = None
        self.uses: list[Use] = []
        self.schemas: list[Schema] = []
        self.splats: list[Splat] = []
        self.tree = tree
        self._assigned: dict[str, list[ast.expr]] | None = None
        self._zero_safe: frozenset[int] | None = None
        self._chained: dict[int, str] = {}  # a literal of a command added up from several: its script

    def assigned(self, name: str) -> list[ast.expr]:
        """The values ``name = value`` gives ``name`` anywhere in the file (``trainer_kwargs = cfg.trainer.kwargs``);
        found on the first splat of a name, which few files have."""
        if self._assigned is None:
            self._assigned = assignments(self.tree) if self.tree is not None else {}
        return self._assigned.get(name, [])

    def _use(
        self, key: str, node: ast.AST, kind: UseKind = "read", attribute: bool = False, zero: bool = False
    ) -> None:
        self.uses.append(Use(key, self.path, getattr(node, "lineno", 1), kind, attribute=attribute, zero_safe=zero))

    def _zero(self, node: ast.expr) -> bool:
        """Whether None and 0 come to the same where ``node``'s value goes (``codemods.project.zero_safe``)."""
        if self.tree is None:
            return False
        if self._zero_safe is None:
            self._zero_safe = zero_safe(self.tree)
        return id(node) in self._zero_safe

    def visit_Assign(self, node: ast.Assign) -> None:
        """``cfg.trainer.gpus = 1``: a store of the key, with the value it stores."""
        target = node.targets[0] if len(node.targets) == 1 else None
        chain = _chain(target) if isinstance(target, ast.Attribute) else None
        key = _config_key(chain) if chain is not None else None
        if target is None or key is None:
            self.generic_visit(node)
            return
        self.uses.append(Use(key, self.path, node.lineno, "read", stored=ast.unparse(node.value)))
        self.visit(node.value)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        self._access(node)

    def visit_Subscript(self, node: ast.Subscript) -> None:
        self._access(node)

    def _access(self, node: ast.Attribute | ast.Subscript) -> None:
        chain = _chain(node)
        if chain is not None:
            key = _config_key(chain)
            if key is not None:
                attribute = _attribute_read(node, key.partition(".")[2])
                self._use(key, node, attribute=attribute, zero=attribute and self._zero(node))
                return  # the outermost chain says it all
            direct = _other_section_key(chain)
            other = direct or self._alias_key(chain[:-1], chain[-1])
            if other is not None:
                # cfg["trainer_params"]["gpus"]: a section splatted into a Trainer elsewhere; loaded as it is
                # spelled here, it may move with its key (codemods.project.moved_reads), as cfg.trainer.gpus does
                movable = direct is not None and keyed_load(node)
                self._use(other, node, attribute=movable, zero=movable and self._zero(node))
                return
        self.generic_visit(node)

    def _alias_key(self, chain: Sequence[str], key: str) -> str | None:
        """``params.pop("resume_from_checkpoint")`` after ``params = self.config.trainer.params``: a flag of a
        section used through a name the file gives it (``params``, ``self.trainer_config``), as its key path."""
        if key not in SECTION_FLAGS or not chain or len(chain) > 2 or (len(chain) == 2 and chain[0] != "self"):
            return None
        name: ast.expr = ast.Name(chain[0])
        if len(chain) == 2:
            name = ast.Attribute(name, chain[1])
        found = self._sections(name, True)
        computed = len(found) == 1 and "{}" in found[0]  # (a key spelled at run time: no one section's)
        return f"{found[0].rpartition('.')[2]}.{key}" if len(found) == 1 and not computed else None

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
                    self._use(
                        f"trainer.{first.value}",
                        node,
                        zero=name == "get" and len(node.args) == 1 and not node.keywords and self._zero(node),
                    )
                skip.add(id(func))
            elif chain is not None and isinstance(first, ast.Constant) and isinstance(first.value, str):
                # cfg.trainer.kwargs.get("accelerator"), params.get("accelerator") after params = cfg.trainer.kwargs
                other = _other_section_key([*chain, first.value]) or self._alias_key(chain, first.value)
                if other is not None:
                    self._use(other, node)
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
            self._splat(node, trainer=name.endswith("Trainer") or name == "from_argparse_args")
            for keyword in _dropped_reads(node, name):
                self._use(f"trainer.{keyword.arg}", keyword.value, "dropped_flag")
                skip.add(id(keyword))
        elif name.endswith("CLI"):
            self._trainer_defaults(node)
        for child in ast.iter_child_nodes(node):
            if id(child) not in skip:
                self.visit(child)

    def _splat(self, node: ast.Call, trainer: bool) -> None:
        """``trainer``: the callee is a Trainer class, so a section under any key counts (``Trainer(**cfg.params)``),
        not only one named ``trainer`` (``instantiate(cfg.trainer)``)."""
        sections: list[str] = []
        for keyword in node.keywords:
            if keyword.arg is None:
                sections.extend(self._sections(keyword.value, trainer))
        for arg in node.args:
            sections.extend(self._sections(arg, trainer))
        explicit = tuple(sorted(k.arg for k in node.keywords if k.arg is not None))
        chosen = [k.value for k in node.keywords if k.arg in ("strategy", "plugins")]
        objects = self._objects(chosen) if sections else ()
        for section in sections:
            self.splats.append(Splat(section, self.path, node.lineno, explicit, objects=objects))

    def _objects(self, values: Sequence[ast.expr]) -> tuple[str, ...]:
        """:func:`_instantiated`, also through a name (``plugins = [NLPDDPPlugin()]`` then ``plugins=plugins``): the
        classes every value given to that name instantiates (``plugins.append(...)`` adds, never removes)."""
        found: set[str] = set(_instantiated(values))
        for value in values:
            if isinstance(value, ast.Name):
                each = [set(_instantiated([given])) for given in self.assigned(value.id)]
                found |= set.intersection(*each) if each else set()
        return tuple(sorted(found))

    def _trainer_defaults(self, node: ast.Call) -> None:
        """``LightningCLI(trainer_defaults={"plugins": ...})``: the config file's trainer section overrides these
        keys, so the section must not gain a flag that competes with them (a second strategy)."""
        for keyword in node.keywords:
            if keyword.arg != "trainer_defaults":
                continue
            value = keyword.value
            keys: list[str] = []
            chosen: list[ast.expr] = []
            if isinstance(value, ast.Dict):
                pairs = [
                    (k.value, v) for k, v in zip(value.keys, value.values, strict=True) if isinstance(k, ast.Constant)
                ]
                keys = [k for k, _ in pairs if isinstance(k, str)]
                chosen = [v for k, v in pairs if k in ("strategy", "plugins")]
            elif isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "dict":
                keys = [k.arg for k in value.keywords if k.arg is not None]
                chosen = [k.value for k in value.keywords if k.arg in ("strategy", "plugins")]
            if keys:
                objects = _instantiated(chosen)
                self.splats.append(Splat("trainer", self.path, node.lineno, tuple(sorted(keys)), "defaults", objects))

    def _sections(self, node: ast.expr, trainer: bool = False, depth: int = 0) -> list[str]:
        """``cfg.trainer`` / ``cfg["trainer"]`` / ``OmegaConf.to_container(cfg.trainer)`` -> ["trainer"]; passed to a
        Trainer class (``trainer``), a mapping under another key too, as its key path without the root:
        ``**config["trainer_params"]`` -> ["trainer_params"], ``**trainer_kwargs`` after ``trainer_kwargs =
        OmegaConf.to_container(config.trainer.kwargs)`` -> ["trainer.kwargs"] (lama's Hydra ``trainer/`` files)."""
        computed = computed_key(node) if trainer else None
        if computed is not None:
            return [computed]  # cfg.get(f"{name}_trainer"): the sections ProjectIndex.merge finds it spells
        if isinstance(node, ast.Call) and node.args:
            node = node.args[0]
        chain = _chain(node)
        # a name, or an attribute of the object (mmf: ``self.trainer_config = self.config.trainer.params``, then
        # ``params = self.trainer_config``, ``OmegaConf.to_container(params)``, ``Trainer(**...)``), a few hops back
        named = node.id if isinstance(node, ast.Name) else None
        if chain is not None and len(chain) == 2 and chain[0] == "self":
            named = ".".join(chain)
        if named is not None and trainer and depth < _HOPS:
            values = self.assigned(named)
            found = {tuple(self._sections(value, trainer, depth + 1)) for value in values}
            return list(found.pop()) if len(found) == 1 else []
        if chain is None or len(chain) < 2:
            return []
        if chain[0] in _TRAINER_OWNERS:
            # self.trainer is a Trainer object; self.config.trainer a config the object holds
            if trainer_object(chain) or len(chain) < 3:
                return []
            chain = chain[1:]
        if chain[-1] == "trainer":
            return ["trainer"]
        return [".".join(chain[1:])] if trainer else []

    def visit_BinOp(self, node: ast.BinOp) -> None:
        if isinstance(node.op, ast.Add) and id(node) not in self._chained:
            self._chained.update(chain_scripts(node))  # (its inner additions too: each chain is read once)
        self.generic_visit(node)

    def visit_Constant(self, node: ast.Constant) -> None:
        if isinstance(node.value, str) and "trainer." in node.value:
            script = self._chained.get(id(node), "")
            for use in text_uses(self._spelling(node), self.path):
                line = node.lineno + use.line - 1
                self.uses.append(replace(use, line=line, script=use.script or script))

    def _spelling(self, node: ast.Constant) -> str:
        """A string's text as its lines spell it where that differs in lines from its value: a line ending in a
        backslash continues into the next one (a docstring's shell command, ``trainer.gpus=2 \\``), which the value
        joins; read as spelled, each use lands on the line that shows it, and the command is the one that
        ``codemods.frontends.commands`` rewrites there. What the literal's lines hold outside it is blanked."""
        value = str(node.value)
        span = (node.end_lineno or node.lineno) - node.lineno
        if not self.source or span == value.count("\n") or node.end_col_offset is None:
            return value
        if self._lines is None:
            self._lines = _NEWLINE.split(self.source)
        lines = self._lines[node.lineno - 1 : node.lineno + span]
        if len(lines) != span + 1:
            return value
        # ast's columns count UTF-8 bytes
        lines[-1] = lines[-1].encode()[: node.end_col_offset].decode(errors="replace")
        head = lines[0].encode()
        lines[0] = " " * node.col_offset + head[node.col_offset :].decode(errors="replace")
        return "\n".join(lines)

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        fields = tuple(
            (statement.target.id, _annotation(statement.annotation))
            for statement in node.body
            if isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name)
        )
        if mirrors_trainer({name for name, _ in fields}):
            defaults = tuple(
                (statement.target.id, ast.unparse(statement.value) if statement.value is not None else "")
                for statement in node.body
                if isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name)
            )
            self.schemas.append(Schema(self.path, node.lineno, node.name, fields, defaults))
        self.generic_visit(node)


def _instantiated(values: Sequence[ast.expr]) -> tuple[str, ...]:
    """The class names called in these values, one list level deep: ``[DDPPlugin(find_unused_parameters=False)]``."""
    found: list[str] = []
    for value in values:
        for item in value.elts if isinstance(value, ast.List | ast.Tuple) else [value]:
            if isinstance(item, ast.Call):
                func = item.func
                name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
                if name:
                    found.append(name)
    return tuple(sorted(set(found)))


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


def python_index(tree: ast.Module, path: str, facts: tuple[str, ...] = (), source: str = "") -> FileIndex:
    """What a parsed Python file contributes to the project index (``source``: its text, for string lines)."""
    indexer = _PythonIndexer(path, tree, source)
    indexer.visit(tree)
    uses, splats = tuple(indexer.uses), tuple(indexer.splats)
    loads = config_loads(tree, path, source) if uses or splats else ()
    return FileIndex(uses, tuple(indexer.schemas), splats, facts=facts, loads=((path, loads),) if loads else ())

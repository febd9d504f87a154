"""Report ``--gpus``-style command-line options and ``Trainer.add_argparse_args``; never rewrite them.

The options belong to the user's CLI; whether they reach the Trainer cannot be proven from one file, so
the rule only reports them (``gpus`` was deprecated in Lightning 1.7). ``Trainer.from_argparse_args``
calls are handled by the flag rules for the flags they pass explicitly.

Lightning 2.0 removed the Trainer's argparse helpers (``from_argparse_args``, ``add_argparse_args``,
``parse_argparser``, ``match_env_arguments``, ``default_attributes``, ``get_deprecated_arg_names``) and the
functions of ``pytorch_lightning.utilities.argparse`` behind them. At targets 2.0 and later each call gets one
TODO naming what to write instead, never a rewrite: none of them has a one-line equivalent (``from_argparse_args``
kept only the parsed values that name a Trainer argument, ``parse_argparser`` fixed up bare boolean options).
Also on ``flash.Trainer`` and the project's Trainer subclasses, which inherit them. LightningDataModule's
``from_argparse_args``/``add_argparse_args``/``get_init_arguments_and_types`` went in 2.0 too: a TODO where the
class is provably a LightningDataModule, a report where it is a class imported from elsewhere (and ``parse_argparser``).
An import of a removed ``utilities.argparse`` helper gets one TODO (it fails first; rule ``removed_names`` leaves these
names here), and so does a helper read through a Trainer instance (``trainer.get_deprecated_arg_names``, gone in 1.8).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import libcst as cst

from codemods.frontends.python.qualnames import TRAINERS
from codemods.plan.rule import Rule
from codemods.rules._member_receivers import class_named
from codemods.rules._trainer_kind import trainer_kind
from legacy_api.renames import PL

if TYPE_CHECKING:
    from codemods.frontends.python.context import FileContext

ID = "argparse_flags"
_OPTIONS = {
    "--gpus": "accelerator= + devices=",
    "--tpu_cores": "accelerator= + devices=",
    "--ipus": "accelerator= + devices=",
    "--num_processes": "accelerator= + devices=",
    "--distributed_backend": "strategy=",
    "--amp_backend": "precision= / plugins=",
    "--amp_level": "plugins=[ApexMixedPrecisionPlugin(...)]",
}


#: The argparse helpers of 1.x's Trainer, which 2.0 removed (``pytorch_lightning.utilities.argparse`` lost its
#: functions with them), and what to write instead.
_REMOVED = {
    "from_argparse_args": "pass the Trainer its flags explicitly (it took the parsed values that name a Trainer "
    "argument, then **kwargs: `Trainer(accelerator=args.accelerator, devices=args.devices, ...)`), or use "
    "LightningCLI",
    "add_argparse_args": "add the options your script needs with parser.add_argument, or use LightningCLI",
    "parse_argparser": "call parser.parse_args() (it also turned a bare --flag of the options add_argparse_args "
    "made into True)",
    "match_env_arguments": "read the PL_TRAINER_* environment variables yourself (os.environ)",
    "default_attributes": "read the defaults from inspect.signature(Trainer.__init__)",
    "get_deprecated_arg_names": "nothing: it listed the deprecated arguments",
    "get_init_arguments_and_types": "read inspect.signature(Trainer.__init__)",
    "parse_env_variables": "read the PL_TRAINER_* environment variables yourself (os.environ)",
}
#: The helpers that went before 2.0 (the recorded 1.8.6 lacks get_deprecated_arg_names; 1.7.7 has it).
_GONE_IN = {"get_deprecated_arg_names": "1.8"}
#: Their names, for the rules that must leave them to this one (rule ``removed_names``).
REMOVED_HELPERS = frozenset(_REMOVED)
_UTILITIES = f"{PL}.utilities.argparse"


def _trainer(ctx: FileContext, node: cst.BaseExpression) -> str | None:
    """``Trainer`` / ``pl.Trainer`` / ``flash.Trainer`` / a project subclass: how to name it; None otherwise."""
    name = ctx.qualified_name(node)
    if name is not None and name in TRAINERS and TRAINERS[name] == PL:
        return "Trainer"
    return ctx.trainer_class(node)


def _removed(ctx: FileContext, original: cst.Call) -> bool:
    """A TODO (target 2.0 and later) on a call of a removed argparse helper; True when it was one."""
    func = original.func
    name = ctx.qualified_name(func)
    if name is not None and name.startswith(f"{_UTILITIES}.") and name.rpartition(".")[2] in _REMOVED:
        helper = name.rpartition(".")[2]
        ctx.todo(ID, f"{_UTILITIES}.{helper} is gone in 2.0: {_REMOVED[helper]}", original)
        return True
    if not isinstance(func, cst.Attribute) or func.attr.value not in _REMOVED:
        return False
    owner = _trainer(ctx, func.value)
    if owner is None:
        return _datamodule_helper(ctx, original, func)
    helper = func.attr.value
    subclass = "" if owner == "Trainer" else f" (unless {owner} defines its own)"
    message = f"Trainer.{helper} is gone in {_GONE_IN.get(helper, '2.0')}{subclass}: {_REMOVED[helper]}"
    if not ctx.argparse_todo:
        ctx.argparse_todo = True
        ctx.todo(ID, message, original)
    else:
        # One TODO per file: the parser and the Trainer built from it are replaced together.
        ctx.report(ID, f"{message} (replaced together with the helper of this file's TODO)", original)
    return True


#: LightningDataModule's argparse helpers, which 2.0 removed with the Trainer's.
_DATAMODULE = {
    "from_argparse_args": "construct it with its arguments (it took the parsed values that name an __init__ "
    "argument, then **kwargs), or use LightningCLI",
    "add_argparse_args": "add the options with parser.add_argument, or use LightningCLI",
    "get_init_arguments_and_types": "read inspect.signature(<the class>.__init__)",
    "parse_argparser": "call parser.parse_args() and pass the values to the class (it also turned a bare --flag "
    "into True), or use LightningCLI",
}
_DATAMODULE_BASES = frozenset({f"{PL}.LightningDataModule", f"{PL}.core.LightningDataModule"})


def _datamodule_helper(ctx: FileContext, original: cst.Call, func: cst.Attribute) -> bool:
    """``MyDataModule.from_argparse_args(args)``: a TODO where the class is provably a LightningDataModule (it is
    one, or this file defines it on one), a report where it only may be (a class the file imports)."""
    helper = func.attr.value
    if helper not in _DATAMODULE:
        return False
    name = ctx.qualified_name(func.value)
    local = func.value.value if isinstance(func.value, cst.Name) else None
    provable = name in _DATAMODULE_BASES or (local is not None and _defines_datamodule(ctx, local, helper))
    message = f"LightningDataModule.{helper} is gone in 2.0: {_DATAMODULE[helper]}"
    if provable:
        ctx.todo(ID, message, original)
        return True
    own = _own_classes(ctx)
    if local is not None and local not in own and class_named(ctx, func.value) in _DATAMODULE_BASES:
        # The project's own data module (another file), or a variable naming one in every branch (``dm_cls``).
        held = "" if local in dict(ctx.options.hook_classes) else "the classes assigned to "
        unless = f"unless {held}{local} define{'' if held else 's'} its own {helper}"
        ctx.todo(ID, f"LightningDataModule.{helper} is gone in 2.0 ({unless}): {_DATAMODULE[helper]}", original)
        return True
    last = func.value.attr.value if isinstance(func.value, cst.Attribute) else local or ""
    if last[:1].isupper() and local not in own:
        # A class from elsewhere: it may be a LightningDataModule (inherited helper) or define its own.
        ctx.report(
            ID, f"{ctx.code(func)}: if {last} is a LightningDataModule without its own {helper}, {message}", original
        )
    return False


def _own_classes(ctx: FileContext) -> dict[str, Any]:
    """The classes this file defines at any depth, by name (``ast.ClassDef``)."""
    import ast

    return {s.node.name: s.node for s in ctx.analysis.statements if isinstance(s.node, ast.ClassDef)}


def _defines_datamodule(ctx: FileContext, local: str, helper: str) -> bool:
    """``local`` is a class of this file on a LightningDataModule base that does not define ``helper`` itself."""
    import ast

    node = _own_classes(ctx).get(local)
    if node is None or any(
        isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef) and n.name == helper for n in node.body
    ):
        return False
    for base in node.bases:
        parts: list[str] = []
        while isinstance(base, ast.Attribute):
            parts.append(base.attr)
            base = base.value
        root = ctx.resolve(base.id) if isinstance(base, ast.Name) else None
        if root is not None and ".".join((root, *reversed(parts))) in _DATAMODULE_BASES:
            return True
    return False


def leave_import_from(ctx: FileContext, original: cst.ImportFrom, updated: cst.ImportFrom) -> Any:
    """``from pytorch_lightning.utilities.argparse import from_argparse_args``: the import fails at the target (rule
    ``removed_names`` leaves these names to this rule), so one TODO on it naming what to write instead."""
    if ctx.target < (2, 0) or original.relative or isinstance(original.names, cst.ImportStar):
        return updated
    if original.module is None or ctx.code(original.module) != _UTILITIES:
        return updated
    gone = [
        alias.name.value
        for alias in original.names
        if isinstance(alias.name, cst.Name)
        and alias.name.value in _REMOVED
        and not ctx.surface.has(f"{_UTILITIES}.{alias.name.value}")
    ]
    if gone:
        said = "; ".join(f"{name}: {_REMOVED[name]}" for name in gone)
        ctx.todo(
            ID,
            f"{_UTILITIES} has no {', '.join(gone)} in Lightning {ctx.surface.release} (gone in 2.0): {said}",
            original,
        )
    return updated


def leave_attribute(ctx: FileContext, original: cst.Attribute, updated: cst.Attribute) -> Any:
    """A removed helper read through a Trainer instance (``trainer.get_deprecated_arg_names``): the class-level
    uses are ``leave_call``'s."""
    if ctx.target < (2, 0) or original.attr.value not in _REMOVED:
        return updated
    if _trainer(ctx, original.value) is None and trainer_kind(ctx, original.value) is True:
        helper = original.attr.value
        ctx.todo(ID, f"Trainer.{helper} is gone in {_GONE_IN.get(helper, '2.0')}: {_REMOVED[helper]}", original)
    return updated


def leave_call(ctx: FileContext, original: cst.Call, updated: cst.Call) -> Any:
    if ctx.target >= (2, 0) and _removed(ctx, original):
        return updated
    func = original.func
    if not isinstance(func, cst.Attribute) or func.attr.value not in ("add_argument", "add_argparse_args"):
        return updated
    if func.attr.value == "add_argparse_args":
        if ctx.target >= (1, 7) and (ctx.qualified_name(func.value) or "").endswith("Trainer"):
            ctx.report(ID, "Trainer.add_argparse_args adds legacy --gpus/--tpu_cores options; check the CLI", original)
        return updated
    for arg in original.args:
        if isinstance(arg.value, cst.SimpleString) and arg.keyword is None:
            option = arg.value.evaluated_value
            if isinstance(option, str) and option in _OPTIONS and ctx.target >= (1, 7):
                ctx.report(ID, f"command-line option {option}: if it feeds the Trainer, pass {_OPTIONS[option]}", arg)
    return updated


RULE = Rule(
    id=ID,
    description="--gpus-style argparse options are reported (not rewritten) unless provably fed to the Trainer",
    deprecated_in="1.7",
    handlers={"Call": leave_call, "ImportFrom": leave_import_from, "Attribute": leave_attribute},
    tokens=(*tuple(_OPTIONS), *_REMOVED),
)

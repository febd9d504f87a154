"""``cfg.trainer.gpus`` -> ``cfg.trainer.devices`` where the project's configs move that value there in this run.

A read of a config key that the run migrates would find nothing afterwards. ``codemods.project.moved_reads`` decides,
for the whole project, which keys' reads can follow their value to its new key (``gpus: 8`` -> ``devices: 8`` in every
config that sets it, nothing else using the key); this rule renames those reads, or, where some config, command or
store gives 0 (``accelerator: cpu``), writes ``(cfg.trainer.devices if cfg.trainer.accelerator == "gpu" else 0)``
in their place. Which attributes are config
reads is the project index's own test (``codemods.project.scan_python.config_key``): ``self.trainer.gpus`` is a Trainer
property and is left to the rule ``trainer_properties``.

A read of a flag the target refuses that nothing in the project sets (``codemods.project.moved_reads.unset_keys``: no
config, schema, store or override holds the key) gets a TODO instead: its value comes from outside the files
given, a command line as a rule (latent-diffusion's ``main.py`` reads ``lightning_config.trainer.gpus``, which
``--gpus 0,`` filled through the parser of ``Trainer.add_argparse_args``). No config's TODO covers such a read,
and it changes only together with what sets the key.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import libcst as cst

from codemods.plan.rule import Rule
from codemods.project.config_chains import config_key, other_section_key
from codemods.project.keys import MOVES, UNSET_READS
from codemods.project.store_values import gpus_get, gpus_read
from codemods.rules import _zero_safe
from codemods.rules._config_chains import key_path

if TYPE_CHECKING:
    from codemods.frontends.python.context import FileContext

ID = "config_reads"


def visit_call(ctx: FileContext, node: cst.Call, _: Any) -> None:
    """``Trainer(tpu_cores=configs.trainer.tpu_cores)``: the flag rules migrate (or flag) that keyword, and the read
    stays its value; an unset key's TODO would say it twice."""
    _zero_safe.visit_call(ctx, node, _)
    func = node.func
    name = func.attr.value if isinstance(func, cst.Attribute) else func.value if isinstance(func, cst.Name) else ""
    if not name.endswith("Trainer"):
        return None
    for arg in node.args:
        value = arg.value
        keyword = arg.keyword.value if arg.keyword is not None else None
        if keyword in UNSET_READS and isinstance(value, cst.Attribute) and value.attr.value == keyword:
            ctx.claimed.add(id(value))
    return None


def _stored(ctx: FileContext, node: cst.BaseExpression) -> bool:
    """``node`` is what its statement assigns to (``cfg.trainer.gpus = 1``): a store, rule ``config_stores``'s."""
    statement = ctx.statements[-1] if ctx.statements else None
    return isinstance(statement, cst.SimpleStatementLine) and any(
        isinstance(small, cst.Assign) and any(target.target is node for target in small.targets)
        for small in statement.body
    )


def leave_attribute(ctx: FileContext, original: cst.Attribute, updated: cst.Attribute) -> Any:
    old = original.attr.value
    if old not in UNSET_READS:
        return updated
    if not (isinstance(original.value, cst.Attribute) and original.value.attr.value == "trainer"):
        return _keyed(ctx, original, updated, old)
    # both decided for the whole project (codemods.project.moved_reads)
    if f"trainer.{old}" not in ctx.options.moved_reads and old not in ctx.options.unset_reads:
        return updated
    chain = key_path(original)
    if chain is None or config_key(chain) != f"trainer.{old}" or _stored(ctx, original):
        return updated
    if old in ctx.options.unset_reads:
        if id(original) in ctx.claimed:
            return updated
        ctx.todo(
            ID,
            f"{ctx.code(original)} reads the Trainer flag {old}, which no config given here sets (a command line "
            f"may): Lightning {ctx.options.target} takes {UNSET_READS[old]} instead; migrate this read with what "
            "sets the key",
            original,
        )
        return updated
    new = MOVES[old]
    if f"trainer.{old}" in ctx.options.read_expressions:  # some config, command or store gives 0: the CPU there
        section = ctx.code(original.value)
        ctx.fix(
            ID,
            f"trainer.{old} is {gpus_read('trainer')} once the configs migrate (0 became accelerator: cpu): the "
            "read gives what it gave",
            original,
        )
        return cst.parse_expression(gpus_read(section))
    ctx.fix(ID, f"trainer.{old} is trainer.{new} in every config this read may see now: it moved with it", original)
    return updated.with_changes(attr=cst.Name(new))


def leave_call(ctx: FileContext, original: cst.Call, updated: cst.Call) -> Any:
    """``if cfg.trainer.get("gpus"):`` -> ``if cfg.trainer.get("devices"):`` (or the :func:`gpus_get` expression
    where some config, command or store gives 0), where the index found the read only tested for truth and the
    project's configs move the key in this run."""
    func = original.func
    if not (isinstance(func, cst.Attribute) and func.attr.value == "get" and len(original.args) == 1):
        return updated
    arg = original.args[0]
    text = arg.value
    if arg.keyword is not None or arg.star or not isinstance(text, cst.SimpleString | cst.ConcatenatedString):
        return updated
    old = text.evaluated_value
    if old not in MOVES or f"trainer.{old}" not in ctx.options.moved_reads or id(original) not in ctx.zero_safe:
        return updated
    chain = key_path(func.value)
    if chain is None or chain[-1] != "trainer" or config_key([*chain, old]) != f"trainer.{old}":
        return updated
    new = MOVES[old]
    if f"trainer.{old}" in ctx.options.read_expressions:  # some config, command or store gives 0: the CPU there
        ctx.fix(
            ID,
            f'trainer.get("{old}") is {gpus_get("trainer")} once the configs migrate (0 became accelerator: cpu):'
            " where this value goes, 0 and None come to the same",
            original,
        )
        return cst.parse_expression(gpus_get(ctx.code(func.value)))
    ctx.fix(ID, f"trainer.{old} is trainer.{new} in every config this read may see now: it moved with it", original)
    quote = text.quote if isinstance(text, cst.SimpleString) else '"'
    return updated.with_changes(args=[arg.with_changes(value=cst.SimpleString(f"{quote}{new}{quote}"))])


def _keyed(ctx: FileContext, original: cst.Attribute | cst.Subscript, updated: Any, old: str) -> Any:
    """``config["trainer_params"]["gpus"]`` -> ``config["trainer_params"]["devices"]`` (or ``.gpus`` ->
    ``.devices``) where the project splats ``trainer_params`` into a Trainer and its configs move the key in this
    run (``codemods.project.moved_reads``: the same value, never an expression there)."""
    chain = key_path(original)
    key = other_section_key(chain, MOVES) if chain is not None else None
    if key is None or key not in ctx.options.moved_reads or _stored(ctx, original):
        return updated
    new = MOVES[old]
    section = key.partition(".")[0]
    index = updated.slice[0].slice if isinstance(updated, cst.Subscript) else None
    quote = index.value.quote if isinstance(index, cst.Index) and isinstance(index.value, cst.SimpleString) else '"'
    if key in ctx.options.read_expressions:  # some config gives 0: the CPU in the new keys
        ctx.fix(
            ID,
            f"{section}.{old} is {section}.{new} where {section}.accelerator is gpu, else 0, once the configs "
            "migrate (0 became accelerator: cpu): the read gives what it gave",
            original,
        )
        spelled = "" if isinstance(updated, cst.Attribute) else quote
        return cst.parse_expression(gpus_read(ctx.code(original.value), spelled))
    ctx.fix(ID, f"{section}.{old} is {section}.{new} in every config this read may see now: it moved with it", original)
    if isinstance(updated, cst.Attribute):
        return updated.with_changes(attr=cst.Name(new))
    return updated.with_changes(
        slice=[updated.slice[0].with_changes(slice=cst.Index(cst.SimpleString(quote + new + quote)))]
    )


def leave_subscript(ctx: FileContext, original: cst.Subscript, updated: cst.Subscript) -> Any:
    """``config["trainer_params"]["gpus"]``: :func:`_keyed`."""
    if len(original.slice) != 1:
        return updated
    index = original.slice[0].slice
    if not (isinstance(index, cst.Index) and isinstance(index.value, cst.SimpleString)):
        return updated
    old = index.value.evaluated_value
    return _keyed(ctx, original, updated, old) if isinstance(old, str) and old in MOVES else updated


RULE = Rule(
    id=ID,
    description="reads of a config key (cfg.trainer.gpus) move to the key its configs now hold (cfg.trainer.devices); "
    "a read of a removed flag that nothing in the project sets gets a TODO",
    deprecated_in="1.7",
    scope="python",
    handlers={
        **_zero_safe.HANDLERS,
        "Attribute": leave_attribute,
        "Subscript": leave_subscript,
        "visit_Call": visit_call,
        "Call": leave_call,
    },
    tokens=tuple(UNSET_READS),
    # cfg.trainer.get("gpus") and config["trainer_params"]["gpus"] name no attribute the pass visits for
    # (``.gpus`` is a Trainer property)
    visit=lambda: re.compile(
        r"\btrainer\s*\.\s*get\s*\(\s*[\"'](?:"
        + "|".join(MOVES)
        + r")[\"']|\[\s*[\"'](?:"
        + "|".join(MOVES)
        + r")[\"']\s*\]"
    ),
)

"""Report ``--gpus``-style command-line options and ``Trainer.add_argparse_args``; never rewrite them.

The options belong to the user's CLI; whether they reach the Trainer cannot be proven from one file, so
the rule only reports them (``gpus`` was deprecated in Lightning 1.7). ``Trainer.from_argparse_args``
calls are handled by the flag rules for the flags they pass explicitly.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import libcst as cst

from codemods.rule import Rule

if TYPE_CHECKING:
    from codemods.python.context import FileContext

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


def leave_call(ctx: FileContext, original: cst.Call, updated: cst.Call) -> Any:
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
    handlers={"Call": leave_call},
    tokens=(*tuple(_OPTIONS), "add_argparse_args"),
)

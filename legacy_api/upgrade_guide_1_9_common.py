"""What the 1.8 and 1.9 rows of the upgrade-guide table share: the names the rows read and the builders of the
Trainer-flag and hook-argument rows (see :mod:`legacy_api.upgrade_guide_model`)."""

from __future__ import annotations

from legacy_api.upgrade_guide_model import Row, hook, trainer

PL = "pytorch_lightning"
LM, CB, T = f"{PL}.LightningModule", f"{PL}.Callback", f"{PL}.Trainer"
HOOKS, DEVICES = "todo:removed_hooks", "rewrite:device_flags"
#: A trailing hook parameter the target no longer passes: dropped where the body never reads it (the rows' bodies
#: are ``...``), a TODO where it does.
UNREAD = "rewrite:removed_hooks"
#: The 1.x optimizer_step signature whose body never reads what 2.x dropped: rewritten to the one 2.x calls.
STEP = "rewrite:optimizer_step_hook"
STEP_SHOWS = "def optimizer_step(self, epoch, batch_idx, optimizer, optimizer_closure"
FABRIC_LOOP = "implement the loop yourself (Fabric); custom loops are no longer pluggable"
MANUAL = "manual optimization (self.automatic_optimization = False)"
PACKAGE = "out-of-scope:a Python/PyTorch version requirement, outside the code"


def flag_row(
    n: int, audience: str, flag: str, value: str, replacement: str, outcome: str, note: str = "", gone: str = "2.0"
) -> Row:
    return Row(
        f"1.9-{audience}-{n:02d}",
        f"Trainer({flag}=)",
        replacement,
        outcome,
        f"{T}({flag})",
        gone,
        trainer(f"{flag}={value}"),
        guide_note=note,
    )


def hook_arg_row(
    n: int, base: str, signature: str, probe: str, outcome: str = HOOKS, gone: str = "2.0", shows: str = ""
) -> Row:
    name = signature.partition("(")[0]
    return Row(
        f"1.9-advanced-{n:02d}",
        f"{base.rpartition('.')[2]}.{name}(..., {probe.partition('(')[2][:-1]})",
        MANUAL,
        outcome,
        probe,
        gone,
        hook(base.rpartition(".")[2], signature, base.rpartition(".")[0]),
        shows=shows,
    )

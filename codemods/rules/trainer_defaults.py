"""Lightning 2.0's new defaults (flagged or reported), and LightningCLI's ``trainer_defaults=`` (migrated as flags).

1.x ``Trainer()`` trained on the CPU in one process and used ``ddp_spawn`` for several devices; 2.0 picks
every accelerator and device it finds and uses ``ddp``. ``accelerator=None``/``strategy=None`` raise in 2.0.
Not a deprecation but a behaviour change of 2.0, so the step runs for ``--target-version 2.0`` only. The
launcher is an implicit 1.x choice 2.0 changed on purpose: it is reported ("implicit: ..."), never spelled as
``strategy="ddp_spawn"`` (MIGRATION.md, "Selection policy").

``LightningCLI(..., trainer_defaults={...})`` (a dict literal or ``dict(...)``) holds Trainer flags: at every
target its keys go through the same flag rules as a ``Trainer(...)`` call (a strategy object in its
``"plugins"`` moves to its ``"strategy"``), as a dict whose other flags come from the command line or a config.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import libcst as cst

from codemods.flags import Plan, new
from codemods.renames import PL
from codemods.rules._base import Rule
from legacy_api.lightning15 import device_count

if TYPE_CHECKING:
    from codemods.engine import FileContext

ID = "trainer_defaults"
#: Roots whose ``LightningCLI`` takes ``trainer_defaults=`` (1.5: ``pytorch_lightning.utilities.cli``).
_CLI_ROOTS = frozenset({PL, "lightning"})


def leave_call(ctx: FileContext, original: cst.Call, updated: cst.Call) -> Any:
    """``LightningCLI(Model, trainer_defaults={"gpus": 2, "plugins": [MyDDP()]})``: migrate the dict's flags."""
    from codemods import pyflags

    name = ctx.qualified_name(original.func)
    if name is None or name.rpartition(".")[2] != "LightningCLI" or name.split(".", 1)[0] not in _CLI_ROOTS:
        return updated
    args = list(updated.args)
    for index, (old, new_arg) in enumerate(zip(original.args, updated.args, strict=True)):
        if old.keyword is not None and old.keyword.value == "trainer_defaults":
            value = pyflags._dict_plan(ctx, old.value, new_arg.value)
            if value is not new_arg.value:
                args[index] = new_arg.with_changes(value=value)
    changed = any(new_arg is not old_arg for new_arg, old_arg in zip(args, updated.args, strict=True))
    return updated.with_changes(args=args) if changed else updated


def step(plan: Plan) -> None:
    if plan.is_compat:
        return
    accelerator, strategy, devices = plan.get("accelerator"), plan.get("strategy"), plan.get("devices")
    if accelerator is not None and accelerator.known and accelerator.lit is None:
        plan.set("accelerator", new("cpu"))
        plan.note(ID, 'accelerator=None meant the CPU; 2.0 rejects None: accelerator="cpu"')
    if strategy is not None and strategy.known and strategy.lit is None:
        plan.drop("strategy")
        strategy = None
        plan.note(ID, "strategy=None was the default; 2.0 rejects None")
    if plan.opaque_rest or plan.stopped:
        return
    if accelerator is None and devices is None:
        plan.todo(
            ID,
            "2.0 defaults to accelerator='auto', devices='auto' (every GPU, with DDP); "
            'add accelerator="cpu", devices=1 to keep the 1.x default',
        )
        return
    if strategy is not None or devices is None:
        return
    if accelerator is not None and accelerator.known and str(accelerator.lit).lower() in ("tpu", "ipu", "hpu"):
        return  # TPUs and IPUs keep their own strategy in 2.0 as in 1.x: there is no ddp_spawn to keep
    count = device_count(devices.lit) if devices.known else None
    if count is None or count > 1:
        # The launcher is an implicit choice 2.0 changed on purpose: left to 2.0 (MIGRATION.md, "Selection policy").
        several = "several devices" if count is not None else f"devices={devices.text}, if that is several,"
        plan.implicit(
            ID,
            f'1.x ran {several} with "ddp_spawn" (find_unused_parameters=True; "ddp" under SLURM/TorchElastic); '
            '2.0\'s default is "ddp" with find_unused_parameters=False (same devices, another launcher)',
        )


RULE = Rule(
    id=ID,
    description="2.0 default accelerator/devices/strategy changes are flagged or reported; LightningCLI's "
    "trainer_defaults are migrated as flags",
    deprecated_in="2.0",
    scope="flags",
    handlers={"Call": leave_call},
    step=step,
    order=55,
    tokens=("Trainer", "trainer_defaults"),
)

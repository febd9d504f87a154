"""Lightning 2.0's new defaults (flagged or reported), and LightningCLI's ``trainer_defaults=`` (migrated as flags).

1.x ``Trainer()`` trained on the CPU in one process and used ``ddp_spawn`` for several devices; 2.0 picks
every accelerator and device it finds and uses ``ddp``. ``accelerator=None``/``strategy=None`` raise in 2.0
(``strategy="ddp" if c else None`` gets ``"auto"`` for its None).

No accelerator=/devices= at all (a test's ``Trainer(fast_dev_run=True)``, a Hydra section whose devices come
from the configs it is composed with) is 1.x's one-CPU default, which 2.0 changed on purpose: a finding of kind
"report" ("implicit: ..."), not a TODO. Other flags of the same call or section may then act, silently, on
every device 2.0 finds, where they did nothing (or acted on one CPU process) in 1.x: a ``strategy=`` (it spans
every GPU), ``num_nodes`` other than 1 (every GPU of every node, a larger world) and ``sync_batchnorm=True`` (a
no-op for one process). Those change what trains without a word in 2.0's output; the device count alone shows
in its "GPU available: True, used: True" banner. In a Python call that holds all its flags (no ``**kwargs``; a
strategy that is a literal name or an object built there, not a TPU one, not naming its own devices) the fix
is known and made: ``accelerator="cpu", devices=1`` is what 1.x selected. Elsewhere a TODO says it: a YAML
section or a command line may get its devices from a config or a command line the run never sees, and a name
may hold a TPU strategy. A Hydra group file with its own
``defaults:`` list (``- default``, ``- /trainer: default``) is composed with the configs it names, which set its
devices: only reported, whatever its other flags; so is a ``trainer:`` section of a file with a top-level
``defaults:`` list once the YAML front end sets :attr:`Plan.composed` for it.
Not a deprecation but a behaviour change of 2.0, so the step runs for ``--target-version 2.0`` only. The
launcher is an implicit 1.x choice 2.0 changed on purpose: it is reported ("implicit: ..."), never spelled as
``strategy="ddp_spawn"`` (MIGRATION.md, "Selection policy").

``LightningCLI(..., trainer_defaults={...})`` (a dict literal or ``dict(...)``) holds Trainer flags: at every
target its keys go through the same flag rules as a ``Trainer(...)`` call (a strategy object in its
``"plugins"`` moves to its ``"strategy"``), as a dict whose other flags come from the command line or a config.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from codemods.plan.expressions import none_as_auto
from codemods.plan.model import OTHER_DEVICES, Plan, Value, new
from codemods.plan.rule import Rule
from legacy_api.launch_policy import OWN_LAUNCHERS, TEST_SUITE_STRATEGY
from legacy_api.lightning15 import NOT_CPU_STRATEGIES, TRAINER_ARGUMENTS, device_count

if TYPE_CHECKING:
    pass

ID = "trainer_defaults"


def _has_none(value: Value) -> bool:
    """``"ddp" if c else None``, ``DDPPlugin() if c else None``, ``s if c else None``: a None branch."""
    assert value.cond is not None
    return any(branch.known and branch.lit is None for branch in value.cond[1:])


def _auto(branch: Value) -> Value:
    """One branch of ``strategy="ddp" if c else None``, None spelled as 2.0's default "auto" (an object stays)."""
    if not branch.known:
        return branch
    return branch if branch.lit is not None else new("auto")


#: What 1.x did without accelerator=/devices=, and what 2.0 does instead.
_DEFAULT_DEVICES = f"{OTHER_DEVICES}; 2.0 defaults to accelerator='auto', devices='auto' (every GPU, with DDP)"
_KEEP = 'add accelerator="cpu", devices=1 to keep the 1.x default'


def _only_with_several(plan: Plan, strategy: Value | None) -> list[str]:
    """The flags of the plan whose effect 1.x never applied on its one CPU device, and 2.0's default would.

    ``strategy=`` (whatever it names: it now spans every device 2.0 finds), ``num_nodes`` other than 1 (each
    node takes every GPU, a larger world) and ``sync_batchnorm=True`` (a no-op for one process): nothing in
    2.0's output says that they started to act. Values that are not literals count.
    """
    found = []
    if strategy is not None:
        found.append(f"strategy={strategy.text}")
    nodes = plan.get("num_nodes")
    if nodes is not None and not (nodes.known and nodes.lit in (1, "1", None)):
        found.append(f"num_nodes={nodes.text}")
    sync = plan.get("sync_batchnorm")
    if sync is not None and not (sync.known and not sync.lit):
        found.append(f"sync_batchnorm={sync.text}")
    return found


def _keeps_one_cpu(plan: Plan, strategy: Value | None) -> bool:
    """Whether ``accelerator="cpu", devices=1`` is exactly what 1.x selected for these flags: a Python call (a YAML
    section or a command line may get its devices from a config or a command line this run never sees), whose
    strategy, if any, is a literal name that runs on the CPU or an object built in the call (a name may hold a
    TPU strategy, for which 1.x chose TPU devices)."""
    if plan.written_in != "python" or not TRAINER_ARGUMENTS.issuperset(plan.keys()):
        return False  # a name no Trainer takes (``num_gpus=8``): the call raised, and its author meant GPUs
    nodes = plan.get("num_nodes")
    if nodes is not None and nodes.known and not (type(nodes.lit) is int and nodes.lit >= 1):
        return False  # ``num_nodes=0``: 1.5 ran one node, 2.x refuses it; the TODO says so
    if strategy is None:
        return True
    spelled = str(strategy.lit) if strategy.known else strategy.source or ""
    if any(device in spelled.lower() for device in NOT_CPU_STRATEGIES):
        return False
    if strategy.known:
        return isinstance(strategy.lit, str)
    node = strategy.node
    if type(node).__name__ != "Call":
        return False
    # an object that names its own devices (``DDPPlugin(parallel_devices=[...])``) is not given others
    return not any(getattr(arg.keyword, "value", None) == "parallel_devices" for arg in node.args)


def _no_devices(plan: Plan, strategy: Value | None) -> None:
    """No accelerator=/devices= (and no device flag left): 1.x's one CPU device is an implicit default that
    2.0 changed on purpose, so it is reported (MIGRATION.md, "Selection policy"); a TODO only where other flags
    make the difference both silent and harmful (:func:`_only_with_several`), and where the flags are a whole
    Python call, ``accelerator="cpu", devices=1`` instead: exactly 1.x's selection (:func:`_keeps_one_cpu`)."""
    several = _only_with_several(plan, strategy)
    if plan.is_composed:
        # Composed by Hydra from other configs (a ``defaults:`` list): its devices come from there.
        plan.implicit(ID, f"{_DEFAULT_DEVICES}; this config gets its devices from its defaults list, if any names them")
        return
    if several and _keeps_one_cpu(plan, strategy):
        plan.set("accelerator", new("cpu"))
        plan.set("devices", new(1))
        plan.note(
            ID,
            f"1.x trained on one CPU device (per node) without accelerator=/devices=; 2.0 would take every GPU, and "
            f'{", ".join(several)} with them: accelerator="cpu", devices=1 keeps the 1.x selection',
        )
    elif several:
        plan.todo(ID, f"{_DEFAULT_DEVICES}, and {', '.join(several)} then takes effect on all of them: {_KEEP}")
    else:
        plan.implicit(ID, f"{_DEFAULT_DEVICES}: {_KEEP} where that matters")


def _device_decided(plan: Plan) -> bool:
    """Whether the flags a rule already turned into ``accelerator=`` chose the device (``gpus=0`` with
    ``accelerator=None``: the CPU), so that None adds nothing."""
    return bool(plan.successor.keys() & {"gpus", "tpu_cores", "ipus", "num_processes"}) or "devices" in plan


def _strategy_none(plan: Plan) -> Value | None:
    """``strategy=None`` (a branch of a conditional, or a name bound to one) -> what means 1.x's default on 2.0, which
    rejects None: no ``strategy=``, or ``"auto"`` in its place. Exact whatever the devices: None chose no strategy in
    1.5, as "auto" does in 2.0. The plan's strategy after it (None where none is left)."""
    strategy = plan.get("strategy")
    if strategy is not None and strategy.known and strategy.lit is None:
        if plan.written_in == "yaml":
            # A config keeps the key: an override elsewhere (``trainer.strategy=ddp``, in a script or a CI file this
            # run may not see) still finds it, and over a composed config's ``strategy: ddp`` it still chooses none.
            plan.set("strategy", new("auto"))
            plan.note(ID, 'strategy=None was the default; 2.0 rejects None: "auto" in its place')
        else:
            plan.drop("strategy")
            plan.note(ID, "strategy=None was the default; 2.0 rejects None")
        return None  # what follows reads it as it is: no strategy chosen
    if strategy is not None and strategy.cond is not None and _has_none(strategy):
        test, yes, no = strategy.cond
        strategy = Value(node=strategy.node, cond=(test, _auto(yes), _auto(no)), source=strategy.source)
        plan.set("strategy", strategy)
        plan.note(ID, 'strategy=None was the default; 2.0 rejects None: "auto" in its place')
    auto = none_as_auto(strategy) if strategy is not None else None
    if auto is not None:  # a name bound once to ``"ddp" if c else None`` (codemods.frontends.python.bindings)
        strategy = auto
        plan.set("strategy", strategy)
        plan.note(ID, 'strategy=None was the default; 2.0 rejects None: "auto" in its place')
    return strategy


def on_stop(plan: Plan) -> None:
    """On a plan another rule gave up on: a ``strategy=None`` another rule wrote from ``accelerator=None`` (or that
    was there) still means 1.x's default, and 2.0 still rejects it, whatever the person then writes for the devices."""
    # Not where 1.5 refused the flags as written (legacy_fallbacks): that TODO asks for the strategy, and its
    # strategy= stays where the person writes it (compat.lightning raises there, as 1.5 did).
    refused = plan.stopped_by is not None and plan.stopped_by[0] == "legacy_fallbacks"
    if not plan.is_compat and "strategy" in plan and not refused:
        _strategy_none(plan)


def step(plan: Plan) -> None:
    if plan.is_compat:
        return
    accelerator, strategy, devices = plan.get("accelerator"), plan.get("strategy"), plan.get("devices")
    if accelerator is not None and accelerator.known and accelerator.lit is None:
        if plan.opaque_rest and not _device_decided(plan) and plan.written_in == "command" and "strategy" not in plan:
            # A command over a config: 1.5 went by the config's device flags (gpus: 2 trained on two GPUs), which the
            # migrated config holds as accelerator/devices; what the override took away is the config's backend
            # (accelerator: ddp, now strategy: ddp): the target's choice takes its place.
            plan.replace("accelerator", [("strategy", new("auto"))])
            plan.note(
                ID,
                "accelerator=None chose no backend (1.5 went by the config's other device flags): strategy='auto' "
                "replaces the config's (its accelerator: ddp is strategy: ddp once migrated)",
            )
            return
        if plan.opaque_rest and not _device_decided(plan):
            # 1.5 then went by the flags this plan does not see (a config's gpus: 2 trained on two GPUs)
            plan.todo(
                ID,
                "accelerator=None chose nothing: 1.5 went by the other device flags, which are not visible here "
                "(gpus=, num_processes=, or one CPU); 2.0 rejects None: pass the accelerator they chose",
            )
            return
        plan.set("accelerator", new("cpu"))
        plan.note(ID, 'accelerator=None meant the CPU; 2.0 rejects None: accelerator="cpu"')
    accelerator = plan.get("accelerator")
    cpu = accelerator is None or (accelerator.known and accelerator.lit == "cpu")
    if devices is not None and devices.known and devices.lit is None and cpu and not plan.opaque_rest:
        # 1.5 read devices= only next to an accelerator, and ran one CPU process for None next to "cpu" (rule
        # cpu_devices, which ran before accelerator=None became "cpu" here); 2.x refuses None on the CPU
        plan.drop("devices")
        devices = None
        plan.note(ID, "dropped devices=None: the default, which chose nothing in 1.5; 2.0 rejects None")
    strategy = _strategy_none(plan)
    if plan.opaque_rest or plan.stopped:
        return
    if accelerator is None and devices is None:
        _no_devices(plan, strategy)
        return
    if strategy is not None or devices is None:
        return
    if accelerator is not None and accelerator.known and str(accelerator.lit).lower() in OWN_LAUNCHERS:
        return  # TPUs and IPUs keep their own strategy in 2.0 as in 1.x: there is no ddp_spawn to keep
    count = device_count(devices.lit) if devices.known else None
    spawn = plan.test_suite and not plan.trial and not plan.interactive and plan.written_in == "python"
    if count is not None and count > 1 and spawn:
        # pytest runs it: 2.0's "ddp" would start the whole pytest command again in each process (issue 26).
        plan.set("strategy", new(TEST_SUITE_STRATEGY))
        plan.note(
            ID,
            f'strategy="ddp_spawn" in a test suite: 1.5 spawned its {count} processes; the target\'s "ddp" would '
            "run the pytest command again in each of them",
        )
        return
    if count is None or count > 1:
        # The launcher is an implicit choice 2.0 changed on purpose: left to 2.0 (MIGRATION.md, "Selection policy").
        several = "several devices" if count is not None else f"devices={devices.text}, if that is several,"
        # In a notebook 2.x forks (2.6.6 records DDPStrategy with start_method "fork" for gpus=2 there).
        default = '"ddp_notebook" (forked from the notebook)' if plan.interactive else '"ddp"'
        plan.implicit(
            ID,
            f'1.x ran {several} with "ddp_spawn" (find_unused_parameters=True; "ddp" under SLURM/TorchElastic); '
            f"2.0's default is {default} with find_unused_parameters=False (same devices, another launcher)",
        )


RULE = Rule(
    id=ID,
    description="2.0 default accelerator/devices/strategy changes are flagged or reported; LightningCLI's "
    "trainer_defaults are migrated as flags",
    deprecated_in="2.0",
    scope="flags",
    step=step,
    on_stop=on_stop,
    order=55,
    tokens=("Trainer", "trainer_defaults"),
)

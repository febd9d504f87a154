"""Deprecated Trainer properties -> their replacements (``trainer.training_type_plugin`` -> ``trainer.strategy``).

Most were deprecated in Lightning 1.6 and removed in 1.8 (see ``TRAINER_PROPERTIES`` in the renames table).
Only attribute accesses on something that is a Trainer are touched: a ``trainer`` (or ``*_trainer``) parameter,
``self.trainer``/``pl_module.trainer``, a variable assigned from ``Trainer(...)`` or ``build_trainer(...)`` --
never ``self.gpus`` on a user's class, never a config node (``cfg.trainer.devices``, ``self.hparams.trainer.gpus``,
``conf["trainer"].devices``: its keys are config keys). Anything else named like a Trainer is reported, not
rewritten.

A property is rewritten where the new spelling reads the value the old one read in 1.5 (``training_type_plugin`` ->
``strategy``), and, for ``num_gpus``, ``root_gpu`` and ``data_parallel_device_ids``, to the expression that reads
their 1.5 value (``trainer.num_devices if isinstance(trainer.accelerator, CUDAAccelerator) else 0``: ``num_gpus``
was 0 off the GPU, where ``num_devices`` is never below 1), parenthesized inside a larger expression; it differs
from 1.5 only where 1.5's own value disagreed with the devices it trained on (``gpus=2`` next to
``accelerator="cpu"``). The others (``num_processes``, ``devices``, ``tpu_cores``, ``ipus``) are left as they are with
one TODO naming the expression that gives the 1.5 value at the target where one does, once per statement and
never again above a statement nested in one that already carries it (a TODO for an ``if`` test stands above
the ``if``, not also above its body). Properties without a replacement get a TODO too. 1.5's device-count idiom
(``n = max(1, trainer.num_gpus, trainer.num_processes)``, maybe followed by ``if trainer.tpu_cores: n = max(n,
trainer.tpu_cores)``) gets one TODO naming ``trainer.num_devices`` instead of one per property
(``codemods.frontends.python.device_count``).

One context is taken, where the values provably name the same thing: ``trainer.root_gpu`` as the device of a
``torch.cuda`` function (``torch.cuda.synchronize(trainer.root_gpu)``) becomes
``trainer.strategy.root_device.index``, since None there means the current device.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import libcst as cst

from codemods.frontends.python.device_count import PROPERTIES as COUNTED
from codemods.frontends.python.device_count import DeviceCount
from codemods.model import todo_comment
from codemods.plan.rule import Rule
from codemods.rules._gpu_properties import cuda_class, on_the_gpu, plain
from codemods.rules._gpu_properties import leave_call as gpu_call
from codemods.rules._gpu_properties import leave_formatted as gpu_formatted
from codemods.rules._trainer_kind import trainer_kind
from legacy_api.renames import STRATEGY_NAMES, TRAINER_PROPERTIES, TrainerProperty, version_tuple

if TYPE_CHECKING:
    from codemods.frontends.python.context import FileContext

ID = "trainer_properties"
_BY_NAME: dict[str, TrainerProperty] = {prop.old: prop for prop in TRAINER_PROPERTIES if "." not in prop.old}
_NESTED: dict[str, TrainerProperty] = {prop.old: prop for prop in TRAINER_PROPERTIES if "." in prop.old}


def _chain(base: cst.BaseExpression, dotted: str) -> cst.BaseExpression:
    for part in dotted.split("."):
        base = cst.Attribute(value=base, attr=cst.Name(part))
    return base


def _todo(ctx: FileContext, message: str, node: cst.CSTNode) -> None:
    """One TODO per statement; a statement nested in one whose TODO says the same gets no second copy."""
    text = todo_comment(message, ID)
    if any(text in ctx.todos.get(id(statement), ()) for statement in ctx.statements[:-1]):
        ctx.todo_here(ID, message, node)  # the comment above the enclosing statement covers this site
    else:
        ctx.todo(ID, message, node)


def _not_the_same(ctx: FileContext, prop: TrainerProperty, receiver: cst.BaseExpression) -> str:
    """The TODO for a property whose nearest new spelling reads another value on some machines."""
    gone = prop.removed_in is not None and version_tuple(prop.removed_in) <= ctx.target
    message = (
        f"Trainer.{prop.old} is deprecated in {prop.deprecated_in}{f', gone in {prop.removed_in}' if gone else ''}; "
        f"Trainer.{prop.new} is not the same value"
    )
    if not prop.instead:
        return f"{message}, and no expression reads the 1.5 one: {prop.note}"
    return f"{message} ({prop.note}): use `{prop.replacement(ctx.code(receiver), cuda_class(ctx))}`"


#: What ``trainer.<attr> == "<name>"`` compared: the strategy (``accelerator`` was a strategy name before 1.5,
#: and ``_distrib_type`` a ``DistributedType``) or the device (``_device_type``, a ``DeviceType``).
_COMPARED = {"accelerator": "strategy", "distributed_backend": "strategy", "_distrib_type": "strategy"}
_COMPARED["_device_type"] = "accelerator"
#: name -> (class before 2.0, class from 2.0 on; None: no such strategy or accelerator there).
_CLASSES: dict[str, tuple[str | None, str | None]] = {
    "ddp": ("DDPStrategy", "DDPStrategy"),
    "ddp_spawn": ("DDPSpawnStrategy", "DDPStrategy"),
    "deepspeed": ("DeepSpeedStrategy", "DeepSpeedStrategy"),
    "dp": ("DataParallelStrategy", None),
    "ddp_sharded": ("DDPShardedStrategy", None),
    "horovod": ("HorovodStrategy", None),
    "tpu_spawn": ("TPUSpawnStrategy", "XLAStrategy"),
    "cpu": ("CPUAccelerator", "CPUAccelerator"),
    "gpu": ("GPUAccelerator", "CUDAAccelerator"),
    "tpu": ("TPUAccelerator", "XLAAccelerator"),
    "ipu": ("IPUAccelerator", None),
}


#: 1.5's other strategy names (``accelerator="ddp_cpu"`` among them): a check for one is as always-False as for
#: ``"ddp"``, but no single class asks for it.
_OTHER_STRATEGY_NAMES = (STRATEGY_NAMES | {"ddp_cpu"}) - set(_CLASSES)


def _compared(ctx: FileContext, original: cst.Comparison, updated: cst.Comparison) -> tuple[str, str] | None:
    """``trainer.accelerator == "ddp"``, ``trainer._distrib_type != DistributedType.DDP``: (attr, name)."""
    if len(original.comparisons) != 1 or not isinstance(original.comparisons[0].operator, cst.Equal | cst.NotEqual):
        return None
    left, right = original.left, original.comparisons[0].comparator
    if not isinstance(left, cst.Attribute) or left.attr.value not in _COMPARED:
        return None
    if trainer_kind(ctx, left.value) is not True:
        return None
    new_right = updated.comparisons[0].comparator
    value = new_right.evaluated_value if isinstance(new_right, cst.SimpleString) else None
    enum = ctx.qualified_name(right) or ""
    if value is None and enum.rpartition(".")[0].endswith(("DistributedType", "DeviceType")):
        value = enum.rpartition(".")[2].lower()
    if not isinstance(value, str):
        return None
    if value in _CLASSES or (_COMPARED[left.attr.value] == "strategy" and value in _OTHER_STRATEGY_NAMES):
        return left.attr.value, value
    return None


def visit_comparison(ctx: FileContext, node: cst.Comparison, _: Any) -> None:
    if _compared(ctx, node, node) is not None:
        ctx.claimed.add(id(node.left))  # the comparison's TODO says more than the attribute's
    return None


def leave_comparison(ctx: FileContext, original: cst.Comparison, updated: cst.Comparison) -> Any:
    found = _compared(ctx, original, updated)
    if found is None:
        return updated
    attr, name = found
    old, new = _CLASSES.get(name, (None, None))
    cls = new if ctx.target >= (2, 0) else cuda_class(ctx) if name == "gpu" else old
    owner = ctx.code(original.left.value) if isinstance(original.left, cst.Attribute) else "trainer"
    # ``trainer.accelerator == "gpu"`` asked for the device, whatever the attribute compared usually held.
    what = "accelerator" if name in ("cpu", "gpu", "tpu", "ipu") else _COMPARED[attr]
    negation = "not " if isinstance(original.comparisons[0].operator, cst.NotEqual) else ""
    if attr == "accelerator":
        head = f"trainer.accelerator is an Accelerator object, never the string {name!r} (the comparison is always "
        head += f"{'True' if negation else 'False'})"
    else:
        head = f"Trainer.{attr} is gone in 1.6"
    if name not in _CLASSES:
        message = f"{head}; no one {what} class stands for {name!r}: decide what this check means now"
    elif cls is None:
        message = f"{head}; {name!r} has no {what} class at {ctx.options.target}: decide what this check means now"
    else:
        message = (
            f"{head}: to ask for {name!r}, use `{negation}isinstance({owner}.{what}, {cls})` (subclasses count too)"
        )
    _todo(ctx, message, original)
    return updated


#: ``torch.cuda`` functions whose ``device`` argument means the current device when it is None. There 1.5's
#: ``root_gpu`` (None off the GPU) and ``strategy.root_device.index`` (None on the CPU) name the same device
#: wherever CUDA runs: they agree on every recorded case of a CUDA host except ``Trainer()``, where None and 0 both
#: are the current device (tests/parity/test_root_gpu_device.py); without CUDA both calls raise.
_CUDA_DEVICE_FUNCTIONS = frozenset(
    {
        "synchronize",
        "reset_peak_memory_stats",
        "max_memory_allocated",
        "memory_allocated",
        "max_memory_reserved",
        "memory_reserved",
        "memory_stats",
        "memory_summary",
        "reset_max_memory_allocated",
        "get_device_name",
        "get_device_capability",
        "get_device_properties",
        "mem_get_info",
        "utilization",
    }
)


def _cuda_function(ctx: FileContext, func: cst.BaseExpression) -> bool:
    """``torch.cuda.synchronize`` and the others of :data:`_CUDA_DEVICE_FUNCTIONS`, through the module's imports."""
    from codemods.frontends.python.bindings import cuda_function

    parts: list[str] = []
    while isinstance(func, cst.Attribute):
        parts.append(func.attr.value)
        func = func.value
    if not isinstance(func, cst.Name):
        return False
    return cuda_function(ctx, func.value, list(reversed(parts))) in _CUDA_DEVICE_FUNCTIONS


def visit_call(ctx: FileContext, node: cst.Call, _: Any) -> None:
    """Mark ``trainer.root_gpu`` passed as the device of a ``torch.cuda`` function (:data:`_CUDA_DEVICE_FUNCTIONS`)."""
    if not node.args or not _cuda_function(ctx, node.func):
        return None
    device = next((a for a in node.args if a.keyword is not None and a.keyword.value == "device"), None)
    if device is None and node.args[0].keyword is None and not node.args[0].star:
        device = node.args[0]
    if device is not None and isinstance(device.value, cst.Attribute) and device.value.attr.value == "root_gpu":
        ctx.cuda_devices.add(id(device.value))
    return None


def leave_attribute(ctx: FileContext, original: cst.Attribute, updated: cst.Attribute) -> Any:
    if id(original) in ctx.claimed:
        return updated
    attr = original.attr.value
    prop: TrainerProperty | None = None
    receiver: cst.BaseExpression | None = None
    owner: cst.BaseExpression | None = None
    if (
        isinstance(original.value, cst.Attribute)
        and f"{original.value.attr.value}.{attr}" in _NESTED
        and isinstance(updated.value, cst.Attribute)
    ):
        prop = _NESTED[f"{original.value.attr.value}.{attr}"]
        owner, receiver = original.value.value, updated.value.value
    elif attr in _BY_NAME:
        prop, owner, receiver = _BY_NAME[attr], original.value, updated.value
    if prop is None or owner is None or receiver is None or version_tuple(prop.deprecated_in) > ctx.target:
        return updated
    trainer = trainer_kind(ctx, owner)
    if trainer is False:
        if attr == "training_type_plugin" and _last_name(owner).lower().endswith("accelerator"):
            ctx.report(
                ID,
                f"{ctx.code(original)}: Accelerator.training_type_plugin is gone in 1.6 (the strategy holds the "
                "accelerator since); if this is a Lightning Accelerator, reach the strategy as trainer.strategy",
                original,
            )
        return updated
    if trainer is None:
        if prop.new is None:
            replacement = "no replacement"
        elif prop.exact:
            replacement = f"Trainer.{prop.new}"
        else:
            replacement = f"not Trainer.{prop.new}: {prop.replacement(cuda=cuda_class(ctx)) or prop.note}"
        ctx.report(
            ID,
            f"{ctx.code(original)}: not provably a Trainer, left as it is; if it is one, Trainer.{prop.old} is "
            f"deprecated in {prop.deprecated_in} ({replacement})",
            original,
        )
        return updated
    idiom = ctx.device_counts.get(ctx.anchors[-1][1]) if ctx.device_counts and ctx.anchors else None
    if attr in COUNTED and idiom is not None and idiom.trainer == ctx.code(owner):
        if ctx.anchors[-1][1] == idiom.head:
            _device_count(ctx, idiom, original)
        return updated  # a line of the idiom below its head: the head's TODO covers it
    if prop.new is None:
        message = f"Trainer.{prop.old} is deprecated in {prop.deprecated_in}: {prop.note}"
        if prop.removed_in is not None and version_tuple(prop.removed_in) <= ctx.target:
            # Gone at the target: the line raises AttributeError only when it runs, so the TODO names the fix.
            message = f"Trainer.{prop.old} is gone in {prop.removed_in}: {prop.note}"
        _todo(ctx, message, original)
        return updated
    if prop.old == "root_gpu" and id(original) in ctx.cuda_devices and prop.new is not None:
        ctx.fix(ID, f"Trainer.root_gpu as a torch.cuda device -> Trainer.{prop.new} (the same device there)", original)
        return _chain(receiver, prop.new)
    if not prop.exact and prop.rewritten and prop.instead and plain(receiver):
        return on_the_gpu(ctx, ID, prop, original, receiver)
    if not prop.exact:
        # Left as it is, even where the property is gone at the target: a rewrite to the nearest new spelling
        # would read another value on some machines, silently; the TODO names the one that reads the same.
        _todo(ctx, _not_the_same(ctx, prop, receiver), original)
        return updated
    ctx.fix(ID, f"Trainer.{prop.old} -> Trainer.{prop.new}", original)
    return _chain(receiver, prop.new)


def _device_count(ctx: FileContext, idiom: DeviceCount, node: cst.CSTNode) -> None:
    """One TODO for 1.5's device-count idiom (``codemods.frontends.python.device_count``), above its ``max``
    assignment."""
    trainer, gone = idiom.trainer, "gone in 1.8" if ctx.target >= (1, 8) else "deprecated in 1.6"
    block = f" and the `if {trainer}.tpu_cores:` block below" if idiom.guarded else ""
    verb = "count" if idiom.guarded else "counts"
    message = (
        f"`{idiom.code}`{block} {verb} the Trainer's devices the 1.5 way (the properties are {gone}): write "
        f"`{idiom.target} = {trainer}.num_devices`{' instead of both' if idiom.guarded else ''}. It differs from "
        "1.5's count only where the Trainer selects differently on the target (MIGRATION.md), where 1.5's properties "
        "disagreed with the devices it trained on (gpus=2 next to accelerator='cpu' counted 2 for one CPU), and where "
        "1.5 raised (tpu_cores=[i])"
    )
    if todo_comment(message, ID) not in ctx.todos.get(id(ctx.statements[-1]), ()):
        _todo(ctx, message, node)


def _last_name(node: cst.BaseExpression) -> str:
    """``new_accelerator`` for ``new_accelerator``, ``accelerator`` for ``self.accelerator``; else ""."""
    if isinstance(node, cst.Name):
        return node.value
    return node.attr.value if isinstance(node, cst.Attribute) else ""


RULE = Rule(
    id=ID,
    description="deprecated Trainer properties are replaced where the new one reads the same value "
    "(training_type_plugin) or by the expression that does (num_gpus, root_gpu, data_parallel_device_ids); the "
    "others (num_processes, devices, tpu_cores) get a TODO naming it where one exists",
    deprecated_in="1.6",
    handlers={
        "Attribute": leave_attribute,
        "visit_Comparison": visit_comparison,
        "Comparison": leave_comparison,
        "visit_Call": visit_call,
        "Call": gpu_call,
        "FormattedStringExpression": gpu_formatted,
    },
    tokens=tuple(sorted({prop.old.rsplit(".", 1)[-1] for prop in TRAINER_PROPERTIES})),
)

"""The steps of :func:`legacy_api.translate.translate` after the device flags (codemod rules of order >= 35), and
the renames of encoded instances (``{"__class__": "DDPPlugin"}`` -> ``DDPStrategy``) from the renames table."""

from __future__ import annotations

from functools import cache
from typing import Any

from legacy_api import lightning15 as l15
from legacy_api._translate_plan import (
    CHANGED_MEANING,
    MIXED,
    PLUGIN_PRECISION_ARGS,
    REMOVED_STRATEGIES,
    RENAMED_STRATEGIES,
    Call,
    Plan,
    Stop,
    class_names,
    encoded,
    is_deepspeed,
    plugin_precision,
    precision_2x,
    shown,
)
from legacy_api.launch_policy import TEST_SUITE_STRATEGY, spawns_in_test_suite
from legacy_api.removed_arguments import REMOVED_ARGUMENTS
from legacy_api.renames import PL, RENAMES, version_tuple

#: The newest 2.x this translation targets (the codemod's default ``--target-version``).
TARGET = (2, 6)


def _lit(value: Any) -> Any:
    return value.strip().lower() if isinstance(value, str) else value


def _kept_next_to_tpu_or_ipu(name: str) -> bool:
    return name.startswith(l15.KEPT_ON_TPU_AND_IPU) or name.endswith("find_unused_parameters_false")


def _legacy_fallbacks(plan: Plan) -> None:
    """1.5's silent choices (codemods/rules/legacy_fallbacks.py), on literal flags."""
    rule = "legacy_fallbacks"
    if _lit(plan.get("accelerator")) == "auto" and plan.get("devices") is None:
        plan.use("Trainer(accelerator='auto') without devices", "accelerator='cpu'", rule)
        plan.flags["accelerator"] = "cpu"
        plan.origin["accelerator"] = rule
        plan.flags.pop("devices", None)
    _fallback_strategy(plan, rule)
    precision = plan.get("precision")
    if "precision" in plan and precision == "mixed" and is_deepspeed(plan.get("strategy")):
        plan.use("Trainer(precision='mixed', strategy='deepspeed')", "precision='16-mixed'", rule)
        plan.flags["precision"] = precision = 16
    plugins = plan.get("plugins")
    items = plugins if isinstance(plugins, list | tuple) else []
    chosen = next((p for p in (plugin_precision(item) for item in items) if p is not None), None)
    if "precision" in plan and chosen is not None and str(chosen) != str(precision_2x(precision)):
        plan.use(f"Trainer(precision={precision!r}) next to a precision plugin", "the plugin's precision", rule)
        del plan.flags["precision"]


def _tpu_precision_plugin(plan: Plan) -> None:
    """A plain precision plugin next to TPU cores (codemods/rules/tpu_precision_plugin.py): 2.x's default there."""
    plugins = plan.get("plugins")
    if plan.get("accelerator") != "tpu" or plugins is None:
        return
    items = list(plugins) if isinstance(plugins, list | tuple) else [plugins]

    def plain(item: Any) -> bool:
        names = class_names(item)
        bare = not encoded(item) or not (item.get("args") or item.get("kwargs"))
        return bool(names) and names[0] in ("PrecisionPlugin", "Precision") and bare

    found = [item for item in items if plain(item)]
    if not found:
        return
    plan.use(
        f"Trainer(plugins={shown(plugins)}) on TPUs", "no plugin (XLAPrecision('32-true'))", "tpu_precision_plugin"
    )
    rest = [item for item in items if not plain(item)]
    if rest:  # the codemod leaves the user's list to them (a TODO); at run time the plain plugin just goes
        plan.flags["plugins"] = rest
    else:
        del plan.flags["plugins"]


def _fallback_strategy(plan: Plan, rule: str) -> None:
    value = plan.get("strategy")
    name, accelerator, nodes = _lit(value), _lit(plan.get("accelerator")), _lit(plan.get("num_nodes"))
    if not isinstance(nodes, int | None) or isinstance(nodes, bool):
        return
    nodes = 1 if nodes is None else nodes
    devices = _lit(plan.get("devices"))
    count = 1 if devices is None else l15.device_count(devices)
    if value is not None and not isinstance(value, str):
        return  # an object: 1.5 never altered one
    if accelerator in ("tpu", "ipu") and name is not None and not _kept_next_to_tpu_or_ipu(name):
        plan.use(f"Trainer(strategy={value!r}) with {accelerator.upper()} devices", "no strategy", rule)
        del plan.flags["strategy"]
        name = None
    one = devices in (1, "1") and not isinstance(devices, bool)
    if accelerator in ("auto", "tpu") and name is None and one:
        return  # the launcher differs (spawned in 1.5), not the device
    on_cpu = accelerator in (None, "cpu") and (name is None or name in l15.NO_EFFECT_ON_ONE_CPU)
    explicit_cpu = accelerator == "cpu" and plan.origin.get("accelerator") not in ("device_flags", rule)
    if name == "dp" and nodes > 1 and not (on_cpu and not explicit_cpu):
        raise Stop(rule, 'strategy="dp" runs in one process: 1.5 refused it on several nodes; use strategy="ddp"')
    if name in l15.NO_EFFECT_ON_ONE_CPU and on_cpu and count == 1 and nodes == 1 and not explicit_cpu:
        plan.use(f"Trainer(strategy={value!r}) for one CPU process", "no strategy (it had no effect)", rule)
        del plan.flags["strategy"]
        return
    if name in l15.CPU_FALLBACK and on_cpu and explicit_cpu:
        gone = REMOVED_STRATEGIES.get(name, f"strategy={value!r} is removed in 2.x").partition(":")[0]
        raise Stop(
            rule,
            f"{gone}; next to accelerator='cpu' strategy={value!r} ran ONE process in 1.5: use devices=1 for that,"
            ' or strategy="ddp" for N processes',
            name in REMOVED_STRATEGIES,
        )
    if name in l15.CPU_FALLBACK and on_cpu:
        plan.use(f"Trainer(strategy={value!r}) on the CPU", f"strategy={l15.CPU_FALLBACK[name]!r}", rule)
        plan.flags["strategy"] = l15.CPU_FALLBACK[name]
        return
    if accelerator in ("gpu", "cuda") and nodes > 1 and name is None and count == 1:
        refused = '1.5 refused one GPU per node on several nodes without a strategy: pass strategy="ddp"'
        if "strategy" in plan:  # strategy=None: the rewrite stops at its TODO and keeps it, which 2.x rejects too
            raise Stop(rule, refused)
        # 1.5 refused it; migrate-trainer leaves the call as it is with a TODO, so 2.x's choice (DDP) runs: the same
        plan.use(
            f"Trainer(num_nodes={nodes!r}) with one GPU per node and no strategy",
            'strategy="ddp", which 2.x picks (1.5 refused it)',
            rule,
            False,
        )


def _amp_flags(plan: Plan) -> None:
    rule = "amp_flags"
    if "amp_backend" not in plan and "amp_level" not in plan:
        return
    backend = plan.get("amp_backend")
    name = _lit(backend)
    precision = plan.get("precision")
    full = "precision" not in plan or precision in (32, "32", "32-true", 64, "64", "64-true", None)
    own = _lit(plan.get("accelerator")) in ("tpu", "ipu")
    if "amp_backend" not in plan or name in ("native", None) or (name != "apex" and full and "precision" not in plan):
        for key in ("amp_backend", "amp_level"):
            if key in plan:
                plan.flag(key, "nothing (native AMP is the default)", rule)
                del plan.flags[key]
        return
    if name != "apex":
        raise Stop(rule, f"amp_backend={backend!r}: drop it for native AMP")
    if full or own:
        for key in ("amp_backend", "amp_level"):
            if key in plan:
                plan.flag(key, "nothing (apex was not used for these flags)", rule)
                del plan.flags[key]
        return
    if precision not in (16, "16", "16-mixed"):
        raise Stop(rule, "amp_backend='apex' only ran for precision=16")
    if is_deepspeed(plan.get("strategy")):
        raise Stop(rule, "with DeepSpeed 1.5 passed apex to DeepSpeed's config: set amp there, drop amp_backend")
    raise Stop(rule, "apex AMP is gone in 2.0: remove amp_backend/amp_level and use precision='16-mixed'", True)


def _auto_select_gpus(plan: Plan) -> None:
    rule = "auto_select_gpus"
    if "auto_select_gpus" not in plan:
        return
    flag = plan.flags.pop("auto_select_gpus")
    devices = plan.get("devices")
    if not flag or ("devices" not in plan and _lit(plan.get("accelerator")) in (None, "cpu")):
        plan.use(f"Trainer(auto_select_gpus={flag!r})", "nothing (it selected nothing here)", rule)
        return
    if isinstance(devices, int) and not isinstance(devices, bool):  # 1.5 picked free GPUs for an int count only
        plan.flags["devices"] = Call("accelerators.find_usable_cuda_devices", (devices,))
    # gpus=-1 ("every GPU", no count to pick): migrate-trainer leaves a TODO
    counted = not (isinstance(devices, int) and l15.device_count(devices) is None)
    plan.use(f"Trainer(auto_select_gpus={flag!r})", f"devices=find_usable_cuda_devices({devices!r})", rule, counted)


def _precision_values(plan: Plan) -> None:
    rule = "precision_values"
    precision = plan.get("precision")
    if precision in (64, "64", "64-true") and not isinstance(precision, bool) and is_deepspeed(plan.get("strategy")):
        raise Stop(rule, "DeepSpeed does not train in float64 in 2.x: choose 32 or bf16", True)
    if precision in (64, "64", "64-true") and not isinstance(precision, bool) and _lit(plan.get("strategy")) == "fsdp":
        raise Stop(
            rule,
            "FairScale's FSDP in float64 is removed in 2.0, and native FSDP (strategy='fsdp') does not train in"
            " float64: choose 32 or bf16",
            True,
        )
    if isinstance(precision, bool) or precision not in MIXED:
        return
    spelled = "bf16-true" if plan.get("accelerator") == "tpu" else MIXED[precision]
    plan.flag("precision", f"precision={spelled!r}", rule)
    plan.flags["precision"] = spelled


def _trainer_defaults(plan: Plan) -> None:
    rule = "trainer_defaults"
    if "accelerator" in plan and plan.flags["accelerator"] is None:
        plan.flag("accelerator", "accelerator='cpu'", rule)
        plan.flags["accelerator"] = "cpu"
    if "strategy" in plan and plan.flags["strategy"] is None:
        plan.flag("strategy", "no strategy (2.x rejects None)", rule)
        del plan.flags["strategy"]
    if "accelerator" not in plan and "devices" not in plan and _acts_on_every_device(plan):
        # 1.x's one CPU device, which 2.x's accelerator="auto", devices="auto" would widen to every GPU
        plan.use("no accelerator=/devices=", 'accelerator="cpu", devices=1', rule)
        plan.flags["accelerator"], plan.flags["devices"] = "cpu", 1
    if plan.test_suite and spawns_in_test_suite(plan.get("accelerator"), plan.get("devices"), plan.get("strategy")):
        plan.use(
            f"several devices without a strategy (devices={plan.get('devices')!r}) under pytest",
            f"strategy={TEST_SUITE_STRATEGY!r}, what 1.5 ran: 2.x's 'ddp' would run the pytest session again in"
            " each process",
            rule,
        )
        plan.flags["strategy"] = TEST_SUITE_STRATEGY


def _acts_on_every_device(plan: Plan) -> bool:
    """Flags 2.x would apply to every device it finds: a strategy (not a TPU one: 1.x gave it TPU devices), more
    than one node, ``sync_batchnorm=True`` (codemods rule ``trainer_defaults``)."""
    strategy, nodes = plan.get("strategy"), plan.get("num_nodes")
    if nodes is not None and not (type(nodes) is int and nodes >= 1):
        return False  # not a node count (1.5 ran one node): 2.x refuses it as it is
    if isinstance(strategy, dict) and "parallel_devices" in (strategy.get("kwargs") or {}):
        return False  # the object names its devices
    if strategy is not None:
        spelled = (
            strategy
            if isinstance(strategy, str)
            else str(strategy.get("__class__", ""))
            if isinstance(strategy, dict)
            else ""
        )
        return bool(spelled) and not any(device in spelled.lower() for device in l15.NOT_CPU_STRATEGIES)
    return nodes not in (None, 1) or bool(plan.get("sync_batchnorm"))


def _strategy_names(plan: Plan) -> None:
    rule = "strategy_names"
    strategy = plan.get("strategy")
    if not isinstance(strategy, str):
        return
    name = strategy.lower()
    if name == "fsdp" and _lit(plan.get("accelerator")) == "cpu":
        raise Stop(
            rule,
            "FairScale's FSDP, which 1.5 ran on the CPU, is removed in 2.0; strategy='fsdp' is native FSDP in 2.x and"
            " needs GPUs: use strategy='ddp' on the CPU",
            True,
        )
    if name in CHANGED_MEANING:
        plan.use(f"Trainer(strategy={strategy!r})", CHANGED_MEANING[name], rule, False)
        return
    if name in REMOVED_STRATEGIES:
        raise Stop(rule, REMOVED_STRATEGIES[name], True)
    if name in RENAMED_STRATEGIES:
        if name == "tpu_spawn_debug" and plan.get("accelerator") != "tpu":
            raise Stop(
                rule,
                'strategy="tpu_spawn_debug" on the CPU or GPUs is gone in 2.x: its 2.x name "xla_debug" needs TPUs;'
                " choose a strategy for this accelerator",
                True,
            )
        plan.use(f"Trainer(strategy={strategy!r})", f"strategy={RENAMED_STRATEGIES[name]!r}", rule)
        plan.flags["strategy"] = RENAMED_STRATEGIES[name]


def _replace_sampler_ddp(plan: Plan) -> None:
    for row in RENAMES:
        if row.kind != "kwarg" or row.new is None:
            continue
        old, new = row.old.rsplit(".", 1)[1], row.new.rsplit(".", 1)[1]
        if old in plan and new not in plan:
            plan.flag(old, f"{new}={plan.flags[old]!r}", row.rule)
            plan.flags[new] = plan.flags.pop(old)


def _removed_arguments(plan: Plan) -> None:
    rule = "removed_arguments"
    for row in REMOVED_ARGUMENTS:
        if row.name not in plan or version_tuple(row.removed_in) > TARGET:
            continue
        value = plan.flags.pop(row.name)
        literal = not isinstance(value, list | dict)
        if literal and any(type(value) is type(default) and value == default for default in row.defaults):
            plan.flag(row.name, "nothing (the default)", rule)
            continue
        if row.renamed is not None and row.renamed not in plan:
            match = [new for old, new in row.exact.items() if literal and type(old) is type(value) and old == value]
            if match or not row.exact:
                plan.flags[row.renamed] = match[0] if match else value
                plan.flag(row.name, f"{row.renamed}={plan.flags[row.renamed]!r}", rule)
                continue
        rate = value
        counted = isinstance(rate, int) and not isinstance(rate, bool) and rate > 0
        if row.name == "progress_bar_refresh_rate" and counted:
            callbacks = plan.flags.get("callbacks")
            if callbacks is None or isinstance(callbacks, list):
                bar = Call("callbacks.TQDMProgressBar", (), {"refresh_rate": rate})
                plan.flags["callbacks"] = [*(callbacks or []), bar]
                plan.use(f"Trainer({row.name}={rate!r})", f"callbacks=[TQDMProgressBar(refresh_rate={rate})]", rule)
                continue
        raise Stop(rule, f"{row.name}={value!r} is gone (since {row.removed_in}): {row.todo}")


# --- encoded instances: the renames table ---------------------------------------------------------------------------
@cache
def class_rows() -> dict[str, tuple[str | None, tuple[tuple[str, str], ...], str, str]]:
    """Old class name -> (new class name or None, preset kwargs, rule, note), pytorch_lightning rows only."""
    rows: dict[str, tuple[str | None, tuple[tuple[str, str], ...], str, str]] = {}
    for row in RENAMES:
        if row.kind != "class" or PL not in row.roots:
            continue
        old = row.old.rpartition(".")[2]
        new = row.new.rpartition(".")[2] if row.new is not None else None
        if new != old:
            rows.setdefault(old, (new, row.preset, row.rule, row.note))
    return rows


def renamed(value: Any, plan: Plan | None = None) -> Any:
    """An encoded instance (and any nested in its arguments or in a list) under its 2.x class name."""
    if isinstance(value, list):
        return [renamed(item, plan) for item in value]
    if not encoded(value):
        return value
    cls, preset, seen = value["__class__"], {}, {value["__class__"]}
    original = cls
    while cls in class_rows():
        new, more, rule, note = class_rows()[cls]
        if new is None:
            raise Stop(rule, f"{original} is removed in 2.x: {note}", True)
        if plan is not None:
            plan.use(f"{original}(...)", f"{new}(...)", rule)
        preset.update(dict(more))
        cls = new
        if cls in seen:
            break
        seen.add(cls)
    args = [renamed(arg, plan) for arg in value.get("args") or []]
    kwargs = {key: renamed(arg, plan) for key, arg in (value.get("kwargs") or {}).items()}
    spelling = PLUGIN_PRECISION_ARGS.get(original)
    if spelling is not None:
        if "precision" in kwargs:
            kwargs["precision"] = spelling.get(kwargs["precision"], kwargs["precision"])
        elif args:
            args[0] = spelling.get(args[0], args[0])
    out: dict[str, Any] = {"__class__": cls}
    if args:
        out["args"] = args
    if kwargs or preset:
        out["kwargs"] = {**preset, **kwargs}
    return out


def _instances(plan: Plan) -> None:
    for key, value in list(plan.flags.items()):
        plan.flags[key] = renamed(value, plan)


#: In the order of the codemod's rules (Rule.order 35 to 85), then the class renames.
LATE_STEPS = (
    _legacy_fallbacks,
    _tpu_precision_plugin,
    _amp_flags,
    _auto_select_gpus,
    _precision_values,
    _trainer_defaults,
    _strategy_names,
    _replace_sampler_ddp,
    _removed_arguments,
    _instances,
)

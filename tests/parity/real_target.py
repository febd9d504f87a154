"""The closed loop on the real target: a recorded 1.5 case, migrated at the default target, run on real Lightning 2.x.

CI has no Lightning, so the loop is closed through recorded data, in two halves:

1. here (no Lightning needed): each recorded 1.5.10 case is rendered as source (``closed_loop.render``), migrated by
   the real rule set at the default ``--target-version``, and the migrated ``Trainer(...)`` call is encoded back into
   the case format of ``tools/reference`` (literals, ``{"__class__": ...}`` instances, ``{"__device__": ...}``);
2. ``tools/reference/generate.py --migrated`` feeds those cases to the newest real Lightning 2.x on the same faked
   hardware and records ``tests/data/lightning-<2.x>-migrated.json``.

``tests/parity/test_real_target.py`` re-does step 1 and requires the recorded inputs to be exactly today's migrated
code (otherwise the recording is stale), then compares what 2.x selected with what 1.5.10 selected, in terms both
releases share (:func:`normalise`).
"""

from __future__ import annotations

import ast
import json
from collections.abc import Mapping
from functools import cache
from typing import Any

from codemods.frontends.python import transform_python
from codemods.model import Options
from legacy_api.lightning15 import ACCELERATOR_KINDS
from legacy_api.renames import DEFAULT_TARGET
from tests.parity.closed_loop import render, trainer_keywords


class NotEncodable(ValueError):
    """A migrated value the reference recorder cannot rebuild (a call other than a class or ``torch.device``)."""


def encode(node: ast.expr) -> Any:
    """A migrated keyword value in the reference case encoding."""
    if isinstance(node, ast.List | ast.Tuple):
        return [encode(e) for e in node.elts]
    if isinstance(node, ast.Call):
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        args = [encode(a) for a in node.args]
        if any(k.arg is None for k in node.keywords):
            raise NotEncodable(ast.unparse(node))
        kwargs = {str(k.arg): encode(k.value) for k in node.keywords}
        if name == "device" and len(args) == 1 and not kwargs:
            return {"__device__": args[0]}
        if not name[:1].isupper():
            raise NotEncodable(ast.unparse(node))
        value: dict[str, Any] = {"__class__": name}
        if args:
            value["args"] = args
        if kwargs:
            value["kwargs"] = kwargs
        return value
    try:
        return ast.literal_eval(node)
    except ValueError as error:
        raise NotEncodable(ast.unparse(node)) from error


@cache
def migrate(source: str, target: str = DEFAULT_TARGET, interactive: bool = False) -> tuple[str, tuple[str, ...]]:
    """The migrated source and the rules that left a TODO in it (``interactive``: as a notebook's cell)."""
    outcome = transform_python(source, Options(target=target, interactive=interactive))
    if outcome.error:
        raise RuntimeError(f"migrate-trainer failed on generated source: {outcome.error}")
    todos = {f.rule for f in outcome.findings if f.kind == "todo"}
    return outcome.source, tuple(sorted(todos))


def job_environment(case: Mapping[str, Any]) -> dict[str, str]:
    """The case's cluster variables for a 2.x job. 2.x refuses SLURM's ``--ntasks`` alone ("You set `--ntasks=4` in
    your SLURM bash script, but this variable is not supported"): a migrated sbatch script asks for
    ``--ntasks-per-node``, which SLURM exports as ``SLURM_NTASKS_PER_NODE`` (MIGRATION.md, "Cluster scripts")."""
    env = dict(case.get("env") or {})
    if "SLURM_NTASKS" in env and "SLURM_NTASKS_PER_NODE" not in env:
        nodes = case["kwargs"].get("num_nodes")
        nodes = nodes if isinstance(nodes, int) and not isinstance(nodes, bool) and nodes > 0 else 1
        env["SLURM_NTASKS_PER_NODE"] = str(max(1, int(env["SLURM_NTASKS"]) // nodes))
    return env


def migrated_case(case: Mapping[str, Any], target: str = DEFAULT_TARGET) -> dict[str, Any]:
    """The case to record on real 2.x: the migrated call's keywords on the original case's machine.

    ``todos`` lists the rules that left a TODO (the code is recorded as migrated all the same: a TODO on code that
    2.x runs differently is still a difference to account for); ``unencodable`` holds a value the recorder cannot
    rebuild, and then there is nothing to record.
    """
    source, todos = migrate(render(case["kwargs"]), target, bool(case.get("interactive")))
    out: dict[str, Any] = {
        "hardware": case["hardware"],
        "env": job_environment(case),
        "interactive": bool(case.get("interactive")),
        "todos": list(todos),
        "source": source,
    }
    try:
        out["kwargs"] = {key: encode(node) for key, node in trainer_keywords(source).items()}
    except (NotEncodable, ValueError) as error:
        out["unencodable"] = str(error)
    return out


# --- what both releases selected, in terms they share ---------------------------------------------------------------
#: Strategy class (1.5.10 or 2.x) -> its family. A family 2.x no longer has is in :data:`GONE`.
FAMILY = {
    "SingleDevicePlugin": "single",
    "SingleDeviceStrategy": "single",
    "DDPPlugin": "ddp",
    "DDPSpawnPlugin": "ddp",
    "DDPStrategy": "ddp",
    "DeepSpeedPlugin": "deepspeed",
    "DeepSpeedStrategy": "deepspeed",
    "TPUSpawnPlugin": "xla",
    "XLAStrategy": "xla",
    "SingleTPUPlugin": "single_xla",
    "SingleDeviceXLAStrategy": "single_xla",
    "FSDPStrategy": "fsdp",
    "DataParallelPlugin": "dp",
    "DDP2Plugin": "ddp2",
    "HorovodPlugin": "horovod",
    "DDPShardedPlugin": "fairscale_sharded",
    "DDPSpawnShardedPlugin": "fairscale_sharded",
    "DDPFullyShardedPlugin": "fairscale_fsdp",
    "IPUPlugin": "ipu",
}
ACCELERATOR = ACCELERATOR_KINDS
#: What 2.x no longer has (the strategy families, IPUs, apex): a case selecting one of them can only carry a TODO.
GONE = frozenset({"dp", "ddp2", "horovod", "fairscale_sharded", "fairscale_fsdp", "ipu", "apex", "deepspeed-64"})
#: 1.5.10 precision plugin -> the 2.x precision string for each 1.5 ``precision`` value.
_PRECISION_15 = {
    "PrecisionPlugin": {"32": "32-true"},
    "DoublePrecisionPlugin": {"64": "64-true"},
    "NativeMixedPrecisionPlugin": {"16": "16-mixed", "bf16": "bf16-mixed"},
    "ShardedNativeMixedPrecisionPlugin": {"16": "16-mixed"},
    "FullyShardedNativeMixedPrecisionPlugin": {"16": "16-mixed"},
    # "mixed" was DeepSpeed's float16 AMP; DeepSpeed in float64 is gone in 2.x
    "DeepSpeedPrecisionPlugin": {
        "32": "32-true",
        "16": "16-mixed",
        "bf16": "bf16-mixed",
        "64": "deepspeed-64",
        "mixed": "16-mixed",
    },
    "TPUPrecisionPlugin": {"32": "32-true"},
    "TPUBf16PrecisionPlugin": {"bf16": "bf16-true"},
    "IPUPrecisionPlugin": {"32": "ipu", "16": "ipu"},
    "ApexMixedPrecisionPlugin": {"mixed": "apex"},
}
#: Launcher of each 1.5.10 strategy (1.5 strategies launched themselves) and of each 2.x launcher class.
_LAUNCHER_15 = {"DDPSpawnPlugin": "spawn", "DDPPlugin": "script", "TPUSpawnPlugin": "xla", "DeepSpeedPlugin": "script"}
_LAUNCHER_2X = {"_SubprocessScriptLauncher": "script", "_XLALauncher": "xla"}


def _named_strategy(kwargs: Mapping[str, Any]) -> bool:
    """Whether the 1.5 flags name a strategy (a name or an instance), so that its launcher was chosen explicitly."""
    from legacy_api.renames import STRATEGY_NAMES

    def names(value: Any) -> bool:
        if isinstance(value, list):
            return any(names(v) for v in value)
        if isinstance(value, dict) and "__class__" in value:
            return str(value["__class__"]).endswith("Plugin") and not str(value["__class__"]).endswith(
                "PrecisionPlugin"
            )
        return isinstance(value, str) and value.lower() in STRATEGY_NAMES

    return any(names(kwargs.get(key)) for key in ("strategy", "accelerator", "distributed_backend", "plugins"))


def _chose_find_unused(kwargs: Mapping[str, Any]) -> bool:
    return "find_unused_parameters" in json.dumps(kwargs)


def selection(record: Mapping[str, Any], case: Mapping[str, Any]) -> dict[str, Any]:
    """A recorded selection (1.5.10 or 2.x) in shared terms; the launcher and ``find_unused_parameters`` only where
    the original 1.5 flags (``case``) chose them (MIGRATION.md, "Selection policy")."""
    if record["outcome"] != "ok":
        error = record.get("error") or {}
        return {"outcome": record["outcome"], "error": f"{error.get('type')}: {str(error.get('message'))[:120]}"}
    s = record["selected"]
    old = s["strategy"] in FAMILY and s["strategy"].endswith("Plugin")
    devices = s.get("parallel_devices") or [s.get("root_device")]
    precision = str(s.get("precision_plugin_precision"))
    if old:
        precision = _PRECISION_15.get(s["precision_plugin"], {}).get(precision, f"{s['precision_plugin']}({precision})")
    family = FAMILY.get(s["strategy"], s["strategy"])
    if family == "xla" and len(devices) == 1:
        family = "single_xla"  # one core: 1.5 spawned one XLA process for it, 2.x runs it in place (the policy)
    out: dict[str, Any] = {
        "outcome": "ok",
        "family": family,
        "accelerator": ACCELERATOR.get(s["accelerator"], s["accelerator"]),
        "devices": len(devices),
        "device": str(devices[0]).split(":")[0] if family not in ("xla", "single_xla") else "xla",
        "precision": precision,
        "num_nodes": s.get("strategy_num_nodes") or 1,
    }
    if family not in ("single", "single_xla", "xla"):  # XLA: 2.x's XLAEnvironment is the only one it can use
        out["environment"] = s.get("cluster_environment")
    if _named_strategy(case["kwargs"]) and not case.get("env"):
        if old:
            out["launcher"] = _LAUNCHER_15.get(s["strategy"])
        else:
            launcher = s.get("launcher")
            out["launcher"] = _LAUNCHER_2X.get(launcher, s.get("launcher_start_method") if launcher else None)
    if _chose_find_unused(case["kwargs"]) and "find_unused_parameters" in s:
        value = s["find_unused_parameters"]
        out["find_unused_parameters"] = (old if value == "<unset>" else value) if old else (value is True)
    return out


def gone(theirs: Mapping[str, Any], case: Mapping[str, Any]) -> bool:
    """Whether 1.5.10 selected something 2.x no longer has: a removed strategy, IPUs or apex, a strategy the old
    code named that spawned or re-ran the script in a notebook (2.x forks there or refuses), or a combination 2.x
    cannot express (an XLA strategy or CUDA devices driven by the CPU accelerator, which 1.5 built for strategy
    objects that named their own devices)."""
    if theirs["outcome"] != "ok":
        return False
    if {theirs["family"], theirs["precision"], theirs["accelerator"]} & GONE:
        return True
    if case.get("interactive") and _named_strategy(case["kwargs"]) and theirs["family"] in ("ddp", "deepspeed"):
        return True
    xla = theirs["family"] in ("xla", "single_xla") or theirs["device"] == "xla"
    return bool(
        (xla and theirs["accelerator"] != "tpu") or (theirs["accelerator"] == "cpu" and theirs["device"] != "cpu")
    )


def named_by_code(case: Mapping[str, Any]) -> bool:
    """Whether the old code, not the machine or the job, chose what it selected: under horovodrun 1.5 chose Horovod
    by itself, and on an IPU host ``accelerator="auto"`` (even ``ipus=0``) chose the IPUs; no code names them."""
    if case.get("env"):
        return False
    kwargs = {key: value for key, value in case["kwargs"].items() if not (key == "ipus" and not value)}
    return not (case["hardware"].get("ipu") and "ipu" not in json.dumps(kwargs).lower())


def environment_only(case: Mapping[str, Any], diff: Mapping[str, Any]) -> bool:
    """A difference that the job's cluster variables make, not the code: 2.x no longer detects Kubeflow (its
    ``KubeflowEnvironment.detect()`` raises; pass the plugin), and it uses a SLURM allocation whose task count does
    not match devices x nodes, which 1.5 ignored. Listed in MIGRATION.md ("Cluster scripts"); no code to flag."""
    return bool(case.get("env")) and set(diff) == {"environment"}


def differences(ours: Mapping[str, Any], theirs: Mapping[str, Any]) -> dict[str, list[Any]]:
    """Field -> [1.5.10's value, 2.x's]; two errors are no difference (the old code never ran either)."""
    if theirs["outcome"] != "ok":
        return {}
    if ours["outcome"] != "ok":
        return {"outcome": [theirs["outcome"], ours["outcome"]]}
    return {
        key: [theirs.get(key), ours.get(key)]
        for key in sorted(set(theirs) | set(ours))
        if theirs.get(key) != ours.get(key)
    }


def summary(selected: Mapping[str, Any]) -> str:
    if selected["outcome"] != "ok":
        return str(selected.get("error", selected["outcome"]))[:160]
    parts = [f"{selected['family']} / {selected['accelerator']} x{selected['devices']} / {selected['precision']}"]
    parts += [
        f"{key}={selected[key]}"
        for key in ("num_nodes", "environment", "launcher", "find_unused_parameters")
        if key in selected
    ]
    return " / ".join(parts)


def stale(data: Mapping[str, Any], fresh: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """Ids whose recorded input is not today's migrated code, or that only one side has."""
    recorded = data.get("results", {})
    skipped = set(data.get("header", {}).get("not_recorded") or [])
    out = set(fresh) ^ (set(recorded) | skipped)
    for case_id, case in fresh.items():
        record = recorded.get(case_id)
        if record is not None and any(
            record["case"].get(key) != case.get(key) for key in ("kwargs", "source", "todos", "env")
        ):
            out.add(case_id)
    return sorted(out)


def verdict(
    original: Mapping[str, Any], migrated: Mapping[str, Any] | None
) -> tuple[dict[str, Any], dict[str, Any], dict[str, list[Any]]]:
    """(1.5.10's selection, 2.x's for the migrated code, their differences) for one case."""
    case = original["case"]
    theirs = selection(original, case)
    if migrated is None:
        ours: dict[str, Any] = {"outcome": "not recorded", "error": "the migrated call cannot be rebuilt"}
    else:
        ours = selection(migrated, case)
    return theirs, ours, differences(ours, theirs)

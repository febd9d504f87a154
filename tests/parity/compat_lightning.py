"""compat.lightning on the real Lightning 2.x, judged case by case against 1.5.10 and against the migrated code.

Every 1.5.10 case the old code could build (``tests/data/lightning-1.5.10.json``), passed unchanged through the shim
to the real 2.x Trainer, is recorded in ``tests/data/lightning-2.6.6-compat.json`` (``tools/reference/
record_compat.py``, in the ``lightning`` tier's venv). Two questions, both in the terms the releases share
(:func:`tests.parity.real_target.selection`):

1. :func:`versus_1_5`: does it select what 1.5.10 selected? Three answers: ``same`` (both raised counts: the old
   code never ran either way), ``removed`` (1.5.10 selected something 2.x no longer has and the shim raises the
   error that names the replacement), ``different`` (everything else, each listed with its reason in
   ``tests/data/divergences.json``, suite ``compat.lightning``, and so in MIGRATION.md).
2. :func:`versus_migrated`: does it select what the ``migrate-trainer`` rewrite of the same call selected on the same
   real 2.x (``tests/data/lightning-2.6.6-migrated.json``)? One translation serves both, so the answer must be yes
   on every case (both raising counts); the suite ``compat.lightning-vs-migrated`` stays empty.

The default suite (``test_compat_lightning.py``) checks the committed recording without Lightning; the tier
(``tests/compat/lightning/test_parity.py``) records again and checks the fresh one. Both call the ``check_*``
functions here.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from tests.parity import harness, real_target

VERSION = "2.6.6"
RECORDING = harness.DATA / f"lightning-{VERSION}-compat.json"
MIGRATED = harness.DATA / f"lightning-{VERSION}-migrated.json"
SUITE, VS_MIGRATED = "compat.lightning", "compat.lightning-vs-migrated"

#: The class of the shim's error for a feature 2.x removed (DP, DDP2, Horovod, FairScale, IPUs, apex, ...): a
#: MisconfigurationException subclass whose message names the replacement.
REMOVED_ERROR = "RemovedFeatureError"


RERECORD = 'record again: LPY="$(tools/lightning-venv.sh | tail -n1)"; "$LPY" tools/reference/record_compat.py'


def translation(result: Any) -> dict[str, Any]:
    """A ``legacy_api.translate.Translation`` as the recording keeps it (JSON values), to tell a stale recording."""
    uses = [[use.old, use.replacement, use.rule] for use in result.uses]
    value = {"kwargs": result.kwargs, "uses": uses, "error": result.error}
    return dict(json.loads(json.dumps(value, sort_keys=True, default=repr)))


@cache
def reference() -> dict[str, dict[str, Any]]:
    return harness.load("1.5.10")


@cache
def recording() -> dict[str, Any]:
    return dict(json.loads(RECORDING.read_text(encoding="utf-8")))


@cache
def migrated() -> dict[str, dict[str, Any]]:
    return dict(json.loads(MIGRATED.read_text(encoding="utf-8"))["results"])


def case_ids() -> list[str]:
    """The 1.5.10 cases the old code could express (classes that existed in 1.5), in id order."""
    return sorted(case_id for case_id, r in reference().items() if r["outcome"] != "unavailable")


@dataclass(frozen=True)
class Verdict:
    """What 1.5.10 (or the migrated code) selected, what the shim selected, and how they compare."""

    kind: str  # "same" | "removed" | "different"
    theirs: dict[str, Any]
    ours: dict[str, Any]
    diff: dict[str, list[Any]]


def removed_feature_error(record: Mapping[str, Any]) -> bool:
    """Whether the shim raised its error for a feature 2.x no longer has."""
    return record["outcome"] == "error" and (record.get("error") or {}).get("type") == REMOVED_ERROR


#: The 1.5 classes the shim serves as subclasses of a 2.x class (1.5 code subclasses them): their records are 2.x
#: records, which :func:`tests.parity.real_target.selection` tells from 1.5 ones by the strategy's class name.
SHIM_SUBCLASSES = {"DDPSpawnPlugin": "DDPStrategy"}


def as_2x(record: Mapping[str, Any]) -> dict[str, Any]:
    """A shim record with the strategy under its 2.x class name (see :data:`SHIM_SUBCLASSES`)."""
    out = dict(record)
    selected = out.get("selected")
    if selected and selected.get("strategy") in SHIM_SUBCLASSES:
        out["selected"] = {**selected, "strategy": SHIM_SUBCLASSES[selected["strategy"]]}
    return out


def check_removed_message(record: Mapping[str, Any]) -> None:
    """The removed-feature error is the clear one: it says what became of the feature, then what to use instead (a
    verb, a 2.x class or the package that has it now)."""
    message = str((record.get("error") or {}).get("message"))
    gone = re.search(r"\b(removed|gone|moved|left Lightning|not available|no longer|does not)\b", message)
    assert gone, message
    rest = message[gone.end() :]
    assert re.search(
        r"\b(use|pass|choose|install|remove)\b|\blightning-\w+|\b[A-Z]\w+(Strategy|Accelerator)\b", rest
    ), f"names no replacement: {message}"


def differences(ours: Mapping[str, Any], theirs: Mapping[str, Any]) -> dict[str, list[Any]]:
    """Field -> [theirs, ours]. Two errors are no difference; an error on one side only is."""
    if theirs["outcome"] != "ok" or ours["outcome"] != "ok":
        both_failed = theirs["outcome"] != "ok" and ours["outcome"] != "ok"
        return {} if both_failed else {"outcome": [theirs["outcome"], ours["outcome"]]}
    return real_target.differences(ours, theirs)


def versus_1_5(case_id: str, shim: Mapping[str, Any]) -> Verdict:
    """The shim's record of ``case_id`` against what 1.5.10 selected (the module docstring's question 1)."""
    original = reference()[case_id]
    case = original["case"]
    theirs, ours = real_target.selection(original, case), real_target.selection(as_2x(shim), case)
    diff = differences(ours, theirs)
    if not diff:
        return Verdict("same", theirs, ours, diff)
    if removed_feature_error(shim) and real_target.gone(theirs, case):
        return Verdict("removed", theirs, ours, diff)
    return Verdict("different", theirs, ours, diff)


def versus_migrated(case_id: str, shim: Mapping[str, Any]) -> Verdict:
    """The shim's record against the migrated call's on the same 2.x (the module docstring's question 2)."""
    case = reference()[case_id]["case"]
    rewritten = migrated().get(case_id)
    ours = real_target.selection(as_2x(shim), case)
    if rewritten is None:
        theirs: dict[str, Any] = {"outcome": "not recorded", "error": "the migrated call cannot be rebuilt"}
    else:
        theirs = real_target.selection(rewritten, case)
    diff = differences(ours, theirs)
    return Verdict("different" if diff else "same", theirs, ours, diff)


def listed(suite: str) -> dict[str, dict[str, str]]:
    data = json.loads(harness.DIVERGENCES.read_text(encoding="utf-8"))
    return dict(data.get(suite, {}).get("cases", {}))


def check(suite: str, case_id: str, verdict: Verdict) -> None:
    """A difference is listed with a reason and today's summaries; a listed case that no longer differs fails."""
    entry = listed(suite).get(case_id)
    if verdict.kind != "different":
        assert entry is None, f"listed in {suite} but now {verdict.kind}: run tools/reference/divergences.py"
        return
    assert entry is not None, f"unlisted difference ({suite}): {verdict.diff}; run tools/reference/divergences.py"
    assert entry["why"], "every divergence says why (REASONS in tests/parity/compat_lightning.py)"
    summaries = (real_target.summary(verdict.theirs), real_target.summary(verdict.ours))
    assert (entry["lightning"], entry["ours"]) == summaries, "stale entry: run tools/reference/divergences.py"


def counts(results: Mapping[str, Mapping[str, Any]]) -> dict[str, int]:
    """same (of which both raise) / removed / different against 1.5.10, and against the migrated code."""
    out = {
        "same": 0,
        "both raise": 0,
        "removed": 0,
        "different": 0,
        "vs migrated: same": 0,
        "vs migrated: different": 0,
    }
    for case_id in case_ids():
        verdict = versus_1_5(case_id, results[case_id])
        out[verdict.kind] += 1
        if verdict.kind == "same" and verdict.theirs["outcome"] != "ok":
            out["both raise"] += 1
        out[f"vs migrated: {versus_migrated(case_id, results[case_id]).kind}"] += 1
    return out


def render_numbers() -> str:
    """MIGRATION.md's table of the recording's verdicts (tools/render_migration.py, block ``compat-lightning``)."""
    header = recording()["header"]
    n = counts(recording()["results"])
    total = n["same"] + n["removed"] + n["different"]
    return "\n".join(
        [
            f"Recorded on pytorch-lightning {header['lightning_version']}, torch {header['torch_version']}"
            f" ({header['date']}; `tools/reference/record_compat.py`):",
            "",
            "| the 1.5.10 cases (1.5 flags, unchanged) | cases |",
            "|---|---:|",
            f"| all (every case whose classes existed in 1.5) | {total} |",
            f"| select what 1.5.10 selected | {n['same'] - n['both raise']} |",
            f"| raise where 1.5.10 raised (the old code never ran) | {n['both raise']} |",
            f"| raise `RemovedFeatureError`: 1.5.10 selected what 2.x removed | {n['removed']} |",
            f"| differ, each listed below with its reason (suite **{SUITE}**) | {n['different']} |",
            f"| select what the `migrate-trainer` rewrite selects on the same 2.x | {n['vs migrated: same']} |",
            f"| differ from it (a test requires none: suite **{VS_MIGRATED}** is empty) |"
            f" {n['vs migrated: different']} |",
        ]
    )


def suite_rows(suite: str) -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
    """(case id, theirs, ours) for every difference of ``suite`` in the committed recording (divergences.py)."""
    results = recording()["results"]
    judge = versus_1_5 if suite == SUITE else versus_migrated
    rows = []
    for case_id in case_ids():
        verdict = judge(case_id, results[case_id])
        if verdict.kind == "different":
            rows.append((case_id, verdict.theirs, verdict.ours))
    return rows


#: 1.5.10 raised, the shim selects (the difference's outcome: [1.5.10's, the shim's]); and the other way round.
_15_RAISED, _SHIM_RAISES = r'"outcome": \["error", "ok"\]', r'"outcome": \["ok", "error"\]'

#: (suite, regex on the case id, regex on the json of the difference) -> why; first match wins (divergences.py).
REASONS: list[tuple[str, str, str, str]] = [
    (
        SUITE,
        r"amp_backend=None|num_processes=None|gpus=''|accelerator=(CPU|GPU)Accelerator\(\)|accelerator=DDPPlugin\(\)"
        r"|'tpu_spawn_debug', tpu_cores|precision='bf16', gpus=2, strategy='fsdp'",
        _15_RAISED,
        "Lightning 1.5 crashed here on its own bug (AttributeError on amp_backend=None, TypeError on"
        " num_processes=None or gpus='', an accelerator or strategy instance in accelerator=, UnboundLocalError for"
        " tpu_spawn_debug on one core, a gradient scaler with bf16 FairScale FSDP): no 1.5 code ran this way; the"
        " shim runs what the flags ask for.",
    ),
    (
        SUITE,
        r"precision='(16|32|64|16-mixed)'|precision=None",
        _15_RAISED,
        "Lightning 1.5 compared precision strings with ints ('16'/'32'/'64' failed with 'No precision set') and"
        " refused None and the 2.0 spellings; the shim reads them as 2.x does.",
    ),
    (
        SUITE,
        r"amp_level='O\d'|amp_backend='Native'",
        _15_RAISED,
        "1.5 refused amp_level with native AMP (and a capitalised 'Native'); the shim drops the meaningless"
        " amp_level with a warning, as migrate-trainer does, and runs native AMP.",
    ),
    (
        SUITE,
        r"strategy='(ddp_fork|ddp_notebook|single_device)'|accelerator='(DDP|ddp_find_unused_parameters_false"
        r"|ddp_spawn_find_unused_parameters_false|fsdp)'|strategy='tpu_spawn', (accelerator|tpu_cores)",
        _15_RAISED,
        "A name 1.5 did not take there (strategies added in 1.6/1.7, registry or upper-case names in accelerator=,"
        " which took only DistributedType values, 'tpu_spawn' in strategy=): 1.5 raised, 2.x knows the name.",
    ),
    (
        SUITE,
        r"num_nodes=2, accelerator='gpu', devices=1 \|",
        _15_RAISED,
        "One GPU per node on several nodes without a strategy: 1.5 refused it, 2.x picks DDP. migrate-trainer leaves"
        " the call as it is with a TODO, so the migrated code runs DDP; the shim runs the same, warning that 1.5"
        " refused it (one translation: the shim selects what the rewrite selects).",
    ),
    (
        SUITE,
        r"accelerator='(gpu|tpu|cuda)'|devices=|accelerator='ddp_cpu'.*cpu\+tpu|tpu_cores='?0'?|gpus=2, tpu_cores=8",
        _15_RAISED,
        "A combination 1.5 refused (a named accelerator without its gpus=/tpu_cores= count, devices= without an"
        " accelerator or as a string for the CPU, ddp_cpu or tpu_cores=0 on a TPU machine, tpu_cores without TPUs):"
        " the shim hands the flags to 2.x, which runs them (every device of the kind when no count is given).",
    ),
    (
        SUITE,
        r"num_nodes=(0|-1)|strategy=3",
        _SHIM_RAISES,
        "An invalid value 1.5 ignored (num_nodes below 1, a number as strategy): 2.x refuses it with a message.",
    ),
    (
        SUITE,
        r"devices='2' \| cpu\+tpu",
        _SHIM_RAISES,
        "devices='2' on a TPU host was core number 2 in 1.5 (a string listed core indices); 2.x refuses it: write"
        " devices=[2].",
    ),
    (
        SUITE,
        r"plugins=\['(ddp|ddp_sharded)', '(ddp_sharded|ddp_spawn|ddp_find_unused_parameters_false)'\]",
        _SHIM_RAISES,
        "Two strategies in plugins=, one of them FairScale's: 1.5 kept one by precedence (here not the FairScale"
        " one); the shim refuses the conflict with the removed feature's error, as migrate-trainer leaves a TODO,"
        " rather than guess which the code meant.",
    ),
    (
        SUITE,
        r"strategy='deepspeed', amp_backend='apex'",
        _SHIM_RAISES,
        "With DeepSpeed, 1.5 handed apex AMP to DeepSpeed's own config; 2.x has no Trainer flag for it: the shim"
        " says to set amp in the DeepSpeed config.",
    ),
    (
        SUITE,
        r"kubeflow",
        r"environment",
        "2.x no longer detects Kubeflow (KubeflowEnvironment.detect() raises: it cannot be detected automatically);"
        " pass plugins=[KubeflowEnvironment()] on a Kubeflow PyTorchJob (MIGRATION.md, Cluster scripts).",
    ),
    (
        SUITE,
        r"slurm",
        r"environment",
        "A SLURM allocation whose task count does not match devices x nodes: 1.5 ignored SLURM and launched its own"
        " processes; 2.x uses SLURMEnvironment. Ask sbatch for --ntasks-per-node=<devices> (MIGRATION.md, Cluster"
        " scripts).",
    ),
    (
        SUITE,
        r"horovodrun",
        r"family",
        "Under horovodrun 1.5 chose Horovod by itself, with no code naming it; 2.x has no Horovod (the"
        " lightning-Horovod package has it) and the code names nothing the shim could refuse, so it runs one device.",
    ),
    (
        SUITE,
        r"\| cpu\+ipu$",
        r"family",
        "On an IPU machine 1.5's accelerator='auto' (even ipus=0) chose the IPUs, with no code naming them; 2.x core"
        " has no IPUs (lightning-graphcore has them), so the shim runs the CPU.",
    ),
    (
        SUITE,
        r"gpus=2, ipus=4",
        _SHIM_RAISES,
        "gpus= next to ipus=: 1.5 ran one GPU (its IPU check undid the strategy gpus= asked for), which no 2.x"
        " spelling of these flags says; migrate-trainer leaves the call to its author with a TODO, and the shim"
        " raises that TODO's words rather than run a device count the code did not ask for.",
    ),
    (
        SUITE,
        r"fsdp",
        r"family",
        "strategy='fsdp' was FairScale's FSDP in 1.5 and is PyTorch's native FSDP in 2.x: migrate-trainer keeps the"
        " name with a TODO, and the shim keeps it too, warning, so both run native FSDP on the same devices.",
    ),
    (
        SUITE,
        r"DDPPlugin\(parallel_devices=\[device\('cuda|SingleTPUPlugin\(1\)|TPUSpawnPlugin\(\)",
        r"accelerator",
        "A strategy instance that holds its devices (CUDA devices, a TPU core, TPU spawn) without gpus=/tpu_cores=:"
        " 1.5 attached the CPU accelerator to it; 2.x takes the accelerator from the strategy's devices.",
    ),
    (
        SUITE,
        r"^defaults: \(no flags\)",
        r"",
        "Trainer() with no flags: 1.x trained on one CPU, 2.x takes every accelerator it finds. No legacy flag is"
        " passed, so the shim cannot tell 1.5 code from 2.x code; migrate-trainer reports it (Selection policy).",
    ),
]

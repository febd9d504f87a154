"""Compute every place where our selection differs from the recorded Lightning releases.

    python tools/reference/divergences.py          # update tests/data/divergences.json
    python tools/reference/divergences.py --check  # exit 1 if the table is out of date

The table lists each divergence once: case id, what Lightning did, what we do, and why. Existing
``why`` texts are kept; a new divergence gets the reason of the first matching rule in REASONS, or
an empty reason, which makes the parity test fail until a person writes one. Each suite is a
function (ours -> selection) over a filtered set of cases of one release.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.parity import harness  # noqa: E402

#: (suite, regex on the case id, regex on the json of the difference) -> why. First match wins.
REASONS: list[tuple[str, str, str, str]] = [
    ("newcore", r"hpu", "", "HPU (Habana) accelerators and strategies are out of this project's scope."),
    (
        "newcore",
        r"accelerator='(GPU|cuda|mps|xla|foo|)'|accelerator=3",
        "",
        "Lightning 1.6.5 silently fell back to the CPU for accelerator values it did not know; newcore refuses"
        " unknown names (listing the valid ones), reads names case-insensitively and knows 'cuda' and 'mps'.",
    ),
    (
        "newcore",
        r"strategy='(dp|ddp2)'|DataParallelStrategy\(\)|DDP2Strategy\(\)",
        r"outcome",
        "dp/ddp2 on the CPU: Lightning warned and ran ddp; newcore raises and tells you to pass strategy='ddp',"
        " accelerator='cpu' (no silent fallbacks).",
    ),
    (
        "newcore",
        r"strategy='ddp_(fork|notebook)'",
        "",
        "ddp_fork/ddp_notebook arrived in Lightning 1.7; newcore has them.",
    ),
    (
        "newcore",
        r"precision='(16|32|64|16-mixed)'|precision=None",
        "",
        "String precisions failed in 1.6.5 ('No precision set'); newcore accepts them and the 2.0 spellings,"
        " and precision=None means the default (32).",
    ),
    ("newcore", r"num_nodes=(0|-1)|devices=-2", "", "Lightning accepted non-positive counts; newcore refuses them."),
    ("newcore", r"devices='2' \| cpu\+ipu", "", "newcore parses digit strings alike for every accelerator."),
    (
        "newcore",
        r"plugins=\[\w+\(.*\)\], precision=16",
        "",
        "A precision flag that disagrees with the precision plugin passed is a conflict in newcore, not a silent"
        " preference for the plugin.",
    ),
    (
        "newcore",
        r"horovod",
        r"outcome",
        "Horovod takes its process count from horovodrun: newcore refuses devices>1 with strategy='horovod'.",
    ),
    (
        "newcore",
        r"horovod",
        r"num_devices",
        "Under horovodrun newcore gives each process its own device (read from horovod at setup); Lightning listed"
        " every local device on the strategy.",
    ),
    (
        "newcore",
        r"SingleTPUStrategy\(1\)|TPUSpawnStrategy\(\)|tpu_spawn_debug",
        "",
        "A strategy that runs only on TPUs implies accelerator='tpu' in newcore; Lightning attached the CPU.",
    ),
    (
        "newcore",
        r"accelerator='tpu_spawn'",
        "",
        "A strategy name in accelerator= is a legacy spelling: compat maps it.",
    ),
    (
        "newcore",
        r"strategy='single_device', accelerator='cpu', devices=2",
        "",
        "A single-device strategy with several devices is refused rather than dropping devices silently.",
    ),
]


#: Where Lightning 1.5 raised and compat selects something (the diff's outcome: [Lightning's, ours]).
_15_RAISED = r'"outcome": \["error", "ok"\]'
#: Where Lightning 1.5 selected something and compat raises.
_WE_RAISE = r'"outcome": \["ok", "error"\]'

REASONS += [
    (
        "compat",
        r"amp_backend=None|num_processes=None|gpus=''|accelerator=(CPU|GPU)Accelerator\(\)|accelerator=DDPPlugin\(\)"
        r"|IPUPlugin\(\)|'tpu_spawn_debug', tpu_cores"
        r"|precision='bf16', gpus=2, strategy='(ddp_sharded|ddp_sharded_spawn|fsdp)'",
        _15_RAISED,
        "Lightning 1.5 crashed here on its own bug (AttributeError on amp_backend=None, TypeError on"
        " num_processes=None, an accelerator or strategy instance in accelerator=, or IPUPlugin(); a gradient scaler"
        " with bf16 sharding): no 1.5 code ran this way, and compat runs what the flags ask for.",
    ),
    (
        "compat",
        r"auto_select_gpus=True",
        _15_RAISED,
        "Recording artifact: 1.5's auto_select_gpus allocated memory on each GPU to find free ones, which the"
        " faked CUDA machine cannot; compat keeps the requested count on the first free-looking GPUs.",
    ),
    (
        "compat",
        r"precision='(16|32|64)'",
        _15_RAISED,
        "Lightning 1.5 validated precision as a string but compared it with ints, so '16'/'32'/'64' failed ('No"
        " precision set'; IPUs refused '16'); compat reads them as the numbers they spell, as newcore does.",
    ),
    (
        "compat",
        r"precision='16-mixed'|precision=None",
        _15_RAISED,
        "A spelling 1.5 refused ('16-mixed' is Lightning 2.0's, None means the default 32): compat accepts it as"
        " newcore does, so new code runs under compat too.",
    ),
    (
        "compat",
        r"strategy='(ddp_fork|ddp_notebook|single_device|single_tpu|ipu_strategy)'"
        r"|accelerator='(DDP|ddp_find_unused_parameters_false|ddp_spawn_find_unused_parameters_false|fsdp)'",
        _15_RAISED,
        "A name 1.5 did not take there (strategies added in 1.6/1.7, or registry and upper-case names in"
        " accelerator=, which in 1.5 took only DistributedType values): 1.5 raised ValueError, compat accepts it"
        " as newcore does.",
    ),
    (
        "compat",
        r"accelerator='(gpu|tpu|ipu|cuda|auto|cpu)'|devices=",
        _15_RAISED,
        "New-API spelling that 1.5 refused (a named accelerator without its gpus=/tpu_cores=/ipus= count, devices="
        " without an accelerator or as a string for the CPU, accelerator='cuda'): compat accepts it as newcore"
        " does, taking every device of the kind when no count is given.",
    ),
    (
        "compat",
        r"accelerator='tpu_spawn'",
        _WE_RAISE,
        "1.5 took accelerator='tpu_spawn' without TPU cores and silently ran plain DDP on the CPU or GPUs;"
        " compat maps it only together with tpu_cores= and refuses it otherwise.",
    ),
    (
        "compat",
        r"tpu_spawn_debug",
        _WE_RAISE,
        "1.5 attached a CPU or GPU accelerator to the XLA spawn strategy, which cannot train there; compat"
        " refuses it, as newcore does.",
    ),
    (
        "compat",
        r"strategy='(dp|ddp2)', accelerator='cpu'|DataParallelPlugin\(\)|DDP2Plugin\(\)",
        "",
        "DataParallel/DDP2 on the CPU: 1.5 kept them when accelerator='cpu' was explicit (or an instance was"
        " passed), although DataParallel then runs the module unreplicated and DDP2 has no GPUs to split;"
        " newcore has neither on the CPU. compat runs the names as 'ddp' with a warning, as Lightning 1.6 did,"
        " and refuses instances, which it does not swap for another class.",
    ),
    (
        "compat",
        r"SingleTPUPlugin\(1\)|TPUSpawnPlugin\(\)",
        "",
        "A TPU strategy instance without tpu_cores=: 1.5 attached the CPU accelerator (one core for"
        " TPUSpawnPlugin); compat, like newcore, implies accelerator='tpu' and uses the TPU cores.",
    ),
    (
        "compat",
        r"DDPPlugin\(parallel_devices=\[device\('cuda",
        "",
        "A strategy holding CUDA devices without gpus=: 1.5 attached the CPU accelerator to it; compat takes the"
        " accelerator from the devices, as Lightning 1.6 did.",
    ),
    (
        "compat",
        r"horovod",
        r"num_devices",
        "Under horovodrun compat (like newcore) gives each process its own device, read from horovod at setup;"
        " 1.5 listed every local device on the strategy. The processes and devices used are the same.",
    ),
    (
        "compat",
        r"horovod",
        _WE_RAISE,
        "Horovod takes its process count from horovodrun: compat, like newcore, refuses an explicit count above"
        " one (num_processes=2, or gpus=2 with a HorovodPlugin instance), which 1.5 ignored or used silently.",
    ),
    (
        "compat",
        r"cluster: .*(strategy='(ddp_spawn|ddp_sharded_spawn|ddp_spawn_find_unused_parameters_false)'"
        r"|strategy=None \| .*(lightning|lsf))",
        "",
        "A scheduler already started one process per device (LSF, LOCAL_RANK set; for the sharded and"
        " find_unused variants also SLURM, TorchElastic, Kubeflow): 1.5 kept the spawn strategy and each process"
        " would spawn more; compat, like Lightning 1.6, runs the script-launched variant ('ddp', 'ddp_sharded').",
    ),
    (
        "compat",
        r"slurm",
        r"cluster_environment",
        "1.5 read SLURM only for DDP-family strategies; compat, like Lightning 1.6, reports SLURMEnvironment for a"
        " single device or DataParallel when SLURM runs one task per device (process counts are the same).",
    ),
    (
        "compat",
        r"interactive",
        _WE_RAISE,
        "1.5 allowed spawn strategies (and one-process DDP) in notebooks, where the new processes cannot import"
        " the notebook's code and training fails later; compat refuses them when the Trainer is built, as"
        " Lightning 1.6 did (#12008).",
    ),
    (
        "compat",
        r"gpus=2, (tpu_cores|ipus)=",
        "",
        "Two device flags: 1.5 took the device from gpus= but the strategy from the other flag (plain DDP from"
        " the TPU spawn type of tpu_cores=8, a single GPU for ipus=); compat runs gpus= alone: ddp_spawn on the"
        " GPUs asked for, with a warning for each flag.",
    ),
    (
        "compat",
        r"gpus=2, (num_processes=3, )?accelerator='cpu'",
        "",
        "accelerator='cpu' with gpus= given: 1.5 cut the CPU processes to one because gpus was set; compat runs"
        " the CPU processes asked for (num_processes= or devices=).",
    ),
    (
        "compat",
        r"ipus=0",
        "",
        "ipus=0: 1.5 chose the IPU strategy with no IPUs (it tested `ipus is not None`); compat reads 0 as 'no"
        " IPUs', like gpus=0.",
    ),
    (
        "compat",
        r"invalid: |num_nodes=0|devices=-1",
        _WE_RAISE,
        "Lightning 1.5 accepted meaningless values (an empty or numeric name, a count of 0 or below, an unknown"
        " amp_backend, device strings that are not numbers) and ran on one CPU or IPU; compat refuses them with a"
        " message, as newcore does.",
    ),
    (
        "compat",
        r"devices='2' \| cpu\+ipu",
        "",
        "1.5 handed a digit string to the IPU strategy unparsed and ran one replica; compat parses devices='2' as"
        " two IPUs, as newcore parses digit strings for every accelerator.",
    ),
    (
        "compat",
        r"plugins=\[PrecisionPlugin\(\)\], tpu_cores",
        _WE_RAISE,
        "A non-TPU precision plugin on TPUs: 1.5 used it; compat refuses it, as newcore and Lightning 1.6"
        " (ValueError) do.",
    ),
    (
        "compat",
        r"precision=64, .*deepspeed",
        _WE_RAISE,
        "DeepSpeed trains in 16, bf16 or 32 bits: 1.5 built a precision plugin for 64 that DeepSpeed cannot"
        " honour; compat refuses it when the Trainer is built, as newcore does.",
    ),
]

_NOT_MIGRATED = r'"not migrated"\]'

REASONS += [
    (
        "migrated",
        r"num_nodes=2",
        _NOT_MIGRATED,
        "Not migrated: 1.5 refused these flags on several nodes (dp runs in one process; one GPU per node"
        " needed strategy='ddp'), 1.6+ and newcore pick 'ddp' silently; the codemod leaves a TODO asking for"
        " strategy='ddp' instead of choosing for the user.",
    ),
    (
        "migrated",
        r"strategy='deepspeed', amp_backend='apex'",
        _NOT_MIGRATED,
        "Not migrated: with DeepSpeed, 1.5 handed apex AMP to DeepSpeed's own config (amp.enabled, amp.opt_level);"
        " there is no Trainer flag for it any more, so the codemod leaves a TODO to set it in the DeepSpeed config.",
    ),
    (
        "migrated",
        r"accelerator='auto', devices=1 \|",
        _NOT_MIGRATED,
        "Not migrated: accelerator='auto', devices=1 spawned one XLA process on a TPU machine in 1.5 and ran in"
        " place elsewhere; since 1.6 it runs in place everywhere and no one spelling selects both, so the codemod"
        " leaves a TODO.",
    ),
    (
        "migrated",
        r"precision='bf16', .*amp_backend='apex'",
        _NOT_MIGRATED,
        "Not migrated: apex has no bfloat16 AMP and 1.5 refused precision='bf16' with amp_backend='apex'; the"
        " codemod leaves a TODO instead of choosing native bf16 or apex float16.",
    ),
    (
        "migrated",
        r"",
        _NOT_MIGRATED,
        "Not migrated: the codemod leaves a TODO instead of guessing, because the flags conflict (two strategies,"
        " a device flag against accelerator=) or a value is invalid or not a literal it can translate. compat"
        " raises or resolves them as 1.5 did; the user chooses.",
    ),
    (
        "migrated",
        r"amp_level='O\d'",
        _15_RAISED,
        "1.5 (and compat) refused amp_level without amp_backend='apex'; the codemod drops the meaningless"
        " amp_level, so the migrated code runs with native AMP.",
    ),
    (
        "migrated",
        r"tpu_cores='?0'?|accelerator='ddp_cpu'.*cpu\+tpu|gpus=2, tpu_cores=8 \| cuda=4$",
        _15_RAISED,
        "1.5 refused these flags (tpu_cores=0, ddp_cpu on a TPU machine, tpu_cores without TPUs) and so does"
        " compat; the codemod drops or rewrites the offending flag, so the migrated code runs.",
    ),
]


REASONS.insert(
    0,
    (
        "migrated",
        r"accelerator='cpu', devices=(-\d|0) \||num_processes=-1 \||strategy='' \|",
        r"outcome",
        "compat refuses devices<1 for the CPU and an empty strategy name (1.5.10 ran one CPU process for them: see"
        " the compat suite); the codemod drops the value, so the migrated code runs one CPU process, as 1.5.10 did.",
    ),
)


#: Reasons of the real-2.x suite (tests/parity/test_real_target.py), first match wins.
REASONS += [
    (
        "real-2.x",
        r"kubeflow",
        r"environment",
        "2.x no longer detects Kubeflow (KubeflowEnvironment.detect() raises: it cannot be detected automatically);"
        " pass plugins=[KubeflowEnvironment()] on a Kubeflow PyTorchJob (MIGRATION.md, Cluster scripts).",
    ),
    (
        "real-2.x",
        r"slurm",
        r"environment",
        "A SLURM allocation whose task count does not match devices x nodes: 1.5 ignored SLURM and launched its own"
        " processes; 2.x uses SLURMEnvironment. Ask sbatch for --ntasks-per-node=<devices> (MIGRATION.md, Cluster"
        " scripts).",
    ),
    (
        "real-2.x",
        r"^interactive",
        r"",
        "A strategy the old code named that spawned (or re-ran the script) in a notebook: 2.x refuses it there ('not"
        " compatible with an interactive environment'); the migrated notebook carries a TODO naming ddp_notebook.",
    ),
    (
        "real-2.x",
        r"^defaults: \(no flags\)",
        r"",
        "Trainer() with no flags: 1.x trained on one CPU, 2.x takes every accelerator it finds. Nothing legacy to"
        " migrate; reported (Selection policy, 'one CPU device when no device is named').",
    ),
    (
        "real-2.x",
        r"^precedence|^conflict|plugins=\['ddp_sharded', 'ddp_find",
        r"",
        "Conflicting device or strategy flags that 1.5 resolved by precedence: the codemod leaves a TODO to choose"
        " one instead of spelling the winner.",
    ),
    (
        "real-2.x",
        r"^invalid|num_nodes=0",
        r"",
        "An invalid value 1.5 accepted and ignored (an empty or numeric strategy name, num_nodes below 1): 2.x"
        " refuses it; the codemod leaves a TODO instead of guessing what was meant.",
    ),
    (
        "real-2.x",
        r"accelerator='tpu_spawn'",
        r"",
        "accelerator='tpu_spawn' selected DDP on CPUs and GPUs and the XLA strategy on TPUs in 1.5: a TODO asks"
        " which one was meant.",
    ),
    (
        "real-2.x",
        r"devices='2' \| cpu\+tpu",
        r"",
        "devices='2' on a TPU host was core number 2 in 1.5 (a string listed core indices); 2.x refuses it: write"
        " devices=[2].",
    ),
    (
        "real-2.x",
        r"plugins=\[PrecisionPlugin\(\)\], tpu_cores",
        r"",
        "A plain PrecisionPlugin() on TPUs: 1.5 used it as 32-bit XLA precision; 2.x requires XLAPrecision.",
    ),
    (
        "real-2.x",
        r"amp_backend='apex'",
        r"",
        "apex AMP is gone in 2.x: the codemod leaves a TODO.",
    ),
    (
        "real-2.x",
        r"",
        r"",
        "1.5 selected something 2.x no longer has (DataParallel, DDP2, Horovod, FairScale, IPUs, apex, DeepSpeed in"
        " float64, an XLA strategy without TPUs): the migrated code carries a TODO naming the replacement.",
    ),
]


# compat.lightning's suites keep their reasons next to the verdicts (tests/parity/compat_lightning.py).
from tests.parity.compat_lightning import REASONS as _COMPAT_LIGHTNING_REASONS  # noqa: E402

REASONS += _COMPAT_LIGHTNING_REASONS


def newcore_suite() -> Iterator[tuple[str, dict[str, Any], dict[str, Any]]]:
    from newcore import AcceleratorConnector

    for case_id, record in sorted(harness.load("1.6.5").items()):
        if record["outcome"] == "unavailable" or not harness.is_new_api(record["case"]):
            continue
        yield case_id, harness.lightning_selection(record), harness.run(record["case"], AcceleratorConnector)


def compat_suite() -> Iterator[tuple[str, dict[str, Any], dict[str, Any]]]:
    import compat

    for case_id, record in sorted(harness.load("1.5.10").items()):
        if record["outcome"] == "unavailable":
            continue
        ours = harness.run(record["case"], compat.AcceleratorConnector, harness.compat_class)
        yield case_id, harness.lightning_selection(record), ours


def migrated_suite() -> Iterator[tuple[str, dict[str, Any], dict[str, Any]]]:
    """Each 1.5.10 case as source, through migrate-trainer, into newcore; compared with compat on the original."""
    from tests.parity import closed_loop

    for case_id, record in sorted(harness.load("1.5.10").items()):
        if record["outcome"] == "unavailable":
            continue
        ours, _ = closed_loop.run(record["case"])
        yield case_id, closed_loop.compat_selection(record["case"]), ours


def real_target_suite() -> Iterator[tuple[str, dict[str, Any], dict[str, Any]]]:
    """Each 1.5.10 case as source, migrated at the default target, as real 2.x ran it (recorded)."""
    from tests.parity import real_target

    recorded = json.loads((harness.DATA / "lightning-2.6.6-migrated.json").read_text(encoding="utf-8"))["results"]
    for case_id, record in sorted(harness.load("1.5.10").items()):
        if record["outcome"] == "ok":
            theirs, ours, _ = real_target.verdict(record, recorded.get(case_id))
            yield case_id, theirs, ours


def compat_lightning_suite(suite: str) -> Callable[[], Iterator[tuple[str, dict[str, Any], dict[str, Any]]]]:
    """The 1.5.10 cases through compat.lightning on real 2.x (recorded by record_compat.py), that differ."""

    def rows() -> Iterator[tuple[str, dict[str, Any], dict[str, Any]]]:
        from tests.parity import compat_lightning

        yield from compat_lightning.suite_rows(suite)

    return rows


#: suite -> (what it is compared against, the suite).
SUITES: dict[str, tuple[str, Callable[[], Iterator[tuple[str, dict[str, Any], dict[str, Any]]]]]] = {
    "newcore": ("pytorch-lightning 1.6.5", newcore_suite),
    "compat": ("pytorch-lightning 1.5.10", compat_suite),
    "migrated": (
        "compat on the original 1.5 flags (pytorch-lightning 1.5.10 where the compat table lists no divergence);"
        " ours: newcore on the code migrate-trainer --target-version 1.9 wrote",
        migrated_suite,
    ),
    "real-2.x": (
        "pytorch-lightning 1.5.10 on the original flags; ours: real pytorch-lightning 2.6.6 on the code"
        " migrate-trainer wrote at its default target (recorded by tools/reference/migrated.py)",
        real_target_suite,
    ),
    "compat.lightning": (
        "pytorch-lightning 1.5.10 on the original flags; ours: the same flags, unchanged, through compat.lightning on"
        " real pytorch-lightning 2.6.6 (recorded by tools/reference/record_compat.py); not listed: the cases where"
        " the shim raises its error for a feature 2.x removed",
        compat_lightning_suite("compat.lightning"),
    ),
    "compat.lightning-vs-migrated": (
        "real pytorch-lightning 2.6.6 on the code migrate-trainer wrote; ours: the original flags through"
        " compat.lightning on the same 2.6.6",
        compat_lightning_suite("compat.lightning-vs-migrated"),
    ),
}


def _differences(suite: str, ours: dict[str, Any], theirs: dict[str, Any]) -> dict[str, Any]:
    if suite.startswith("compat.lightning"):
        from tests.parity import compat_lightning

        return compat_lightning.differences(ours, theirs)
    if suite == "real-2.x":
        from tests.parity import real_target

        return real_target.differences(ours, theirs)
    return harness.differences(ours, theirs)


def _summary(suite: str, selected: dict[str, Any]) -> str:
    if suite == "real-2.x" or suite.startswith("compat.lightning"):
        from tests.parity import real_target

        return real_target.summary(selected)
    return harness.summary(selected)


def compute(suite: str) -> dict[str, dict[str, str]]:
    """The divergences of one suite, with the reasons REASONS gives (empty when none matches)."""
    found = {}
    for case_id, theirs, ours in SUITES[suite][1]():
        diff = _differences(suite, ours, theirs)
        if diff:
            found[case_id] = {
                "lightning": _summary(suite, theirs),
                "ours": _summary(suite, ours),
                "why": reason(suite, case_id, json.dumps(diff)),
            }
    return found


def reason(suite: str, case_id: str, diff: str) -> str:
    for rule_suite, case_pattern, diff_pattern, why in REASONS:
        if rule_suite == suite and re.search(case_pattern, case_id) and re.search(diff_pattern, diff):
            return why
    return ""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args(argv)
    current = json.loads(harness.DIVERGENCES.read_text()) if harness.DIVERGENCES.exists() else {}
    fresh: dict[str, Any] = {}
    for suite, (against, _) in SUITES.items():
        old = current.get(suite, {}).get("cases", {})
        cases = compute(suite)
        for case_id, entry in cases.items():
            if old.get(case_id, {}).get("why"):
                entry["why"] = old[case_id]["why"]
        fresh[suite] = {"against": against, "cases": cases}
    text = json.dumps(fresh, indent=1, sort_keys=True) + "\n"
    if args.check:
        return 0 if harness.DIVERGENCES.exists() and harness.DIVERGENCES.read_text() == text else 1
    harness.DIVERGENCES.write_text(text)
    missing = [c for s in fresh.values() for c, e in s["cases"].items() if not e["why"]]
    print(f"{sum(len(s['cases']) for s in fresh.values())} divergences; {len(missing)} without a reason")
    for case_id in missing:
        print("  no reason:", case_id)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

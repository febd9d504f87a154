"""``gpus=X`` that is not a literal: the rewritten pair selects what Lightning 1.5 selected, value by value.

Each row is a case recorded from the real 1.5.10 (tests/data/lightning-1.5.10.json, ``gpus: gpus=<v> | cuda=4``
and the like). The call is rewritten once with the codemod (target 2.0 and 1.7), then the rewritten module is
executed with X bound to the recorded value (and ``torch.cuda`` faked to the recorded machine), and the
``accelerator=``/``devices=`` it passes are read the way the target reads them (``newcore.devices``, Lightning
1.6's parsing, which 2.x keeps for CUDA and XLA devices). The result must be the recorded selection:
GPUAccelerator -> "gpu" with the recorded CUDA indices, TPUAccelerator -> "tpu" with the recorded cores,
CPUAccelerator -> "cpu" with the recorded number of processes; a value 1.5 refused must be refused too.
"""

from __future__ import annotations

import argparse
import ast
import re
import textwrap
from types import SimpleNamespace
from typing import Any

import pytest

from newcore import MisconfigurationException
from newcore.devices import parse_count, parse_indices, parse_tpu
from tests.codemods.helpers import run
from tests.parity.harness import load

FLAGS = ("gpus", "tpu_cores", "num_processes")
#: Values 1.5 refused where the rewritten pair takes the CPU instead (it never takes a device 1.5 refused).
WIDER = {("tpu_cores", "0"), ("num_processes", "None")}
#: 1.5 refusals that come from the machine the rewrite does not model (no TPU host), not from the value.
MACHINE = re.compile(r"No TPU devices|IPU")


def _recorded() -> list[Any]:
    rows = []
    for case_id, record in sorted(load("1.5.10").items()):
        case = record["case"]
        kwargs = case["kwargs"]
        if case["group"] not in FLAGS or set(kwargs) != {case["group"]} or record["outcome"] == "unavailable":
            continue
        if record["outcome"] != "ok" and MACHINE.search(record["error"]["message"]):
            continue
        rows.append(pytest.param(case["group"], kwargs[case["group"]], record, id=case_id))
    return rows


def _cuda(record: dict[str, Any]) -> int:
    return int(record["case"]["hardware"].get("cuda") or 0)


def _selection_15(record: dict[str, Any]) -> tuple[str, Any] | None:
    """(accelerator, devices) of a recorded 1.5 selection, in the target's terms; None when 1.5 refused."""
    if record["outcome"] != "ok":
        return None
    selected = record["selected"]
    devices = selected.get("parallel_devices")
    kind = {"GPUAccelerator": "gpu", "TPUAccelerator": "tpu", "CPUAccelerator": "cpu"}[selected["accelerator"]]
    if kind == "gpu":
        return kind, [int(d.split(":")[1]) for d in devices or [selected["root_device"]]]
    if kind == "tpu":  # 1.5 lists spawned cores by index, or runs one core in place
        return kind, (len(devices) if devices else [int(selected["root_device"].split(":")[1])])
    return kind, len(devices) if devices else 1


def _selection_target(accelerator: Any, devices: Any, cuda: int) -> tuple[str, Any] | None:
    """What the target selects for the rewritten pair; None when it refuses it."""
    try:
        if accelerator in ("gpu", "cuda"):
            return "gpu", parse_indices(devices, accelerator="gpu", available=cuda)
        if accelerator == "tpu":
            return "tpu", parse_tpu(devices, available=8)
        if accelerator == "cpu":
            return "cpu", parse_count(devices, accelerator="cpu")
    except MisconfigurationException:
        return None
    raise AssertionError(f"unexpected accelerator={accelerator!r}")


class _Trainer:
    """Stands in for the Trainer: the flags it was built with."""

    def __init__(self, **flags: Any) -> None:
        self.flags = flags


def _rewritten_flags(
    source: str, target: str, names: dict[str, Any], keys: frozenset[str] = frozenset({"accelerator", "devices"})
) -> dict[str, Any]:
    """Rewrite ``source`` and run it (imports left out) with ``names`` bound: the flags the Trainer gets."""
    outcome = run(textwrap.dedent(source), target)
    assert outcome.error is None
    assert "TODO" not in outcome.source, outcome.source
    assert run(outcome.source, target).source == outcome.source, "a second run must change nothing"
    tree = ast.parse(outcome.source)
    tree.body = [s for s in tree.body if not isinstance(s, ast.Import | ast.ImportFrom)]
    namespace: dict[str, Any] = {"Trainer": _Trainer, **names}
    exec(compile(tree, "<rewritten>", "exec"), namespace)  # the codemod's own output, nothing else
    flags: dict[str, Any] = namespace["trainer"].flags
    assert set(flags) == keys, flags
    return flags


def _fake_torch(cuda: int) -> SimpleNamespace:
    return SimpleNamespace(cuda=SimpleNamespace(device_count=lambda: cuda, is_available=lambda: cuda > 0))


def _check(flags: dict[str, Any], record: dict[str, Any], flag: str, value: Any) -> None:
    ours = _selection_target(flags["accelerator"], flags["devices"], _cuda(record))
    theirs = _selection_15(record)
    if theirs is None and (flag, repr(value)) in WIDER:
        assert ours == ("cpu", 1)
        return
    assert ours == theirs, f"1.5 selected {theirs}, the rewrite {ours} ({flags})"


@pytest.mark.parametrize("target", ["2.0", "1.7"])
@pytest.mark.parametrize(("flag", "value", "record"), _recorded())
def test_attribute_of_unknown_type(flag: str, value: Any, record: dict[str, Any], target: str) -> None:
    """``gpus=args.gpus``: anything 1.5 accepted, strings included ("0" meant the CPU)."""
    source = f"from pytorch_lightning import Trainer\ntrainer = Trainer({flag}=args.value)\n"
    flags = _rewritten_flags(source, target, {"args": SimpleNamespace(value=value)})
    _check(flags, record, flag, value)


@pytest.mark.parametrize(("flag", "value", "record"), _recorded())
def test_name_bound_once_to_the_literal(flag: str, value: Any, record: dict[str, Any]) -> None:
    """``N = <v>`` at module level, ``Trainer(gpus=N)`` in a function: the literal's own rewrite."""
    source = (
        f"from pytorch_lightning import Trainer\nN = {value!r}\n\n\ndef build():\n    return Trainer({flag}=N)\n\n\n"
        "trainer = build()\n"
    )
    if (flag, repr(value)) in WIDER or _selection_15(record) is None:
        pytest.skip("a literal 1.5 refused is left to the literal rules")
    _check(_rewritten_flags(source, "2.0", {}), record, flag, value)


@pytest.mark.parametrize(("flag", "value", "record"), _recorded())
def test_attribute_of_an_int_option(flag: str, value: Any, record: dict[str, Any]) -> None:
    """``gpus=args.gpus`` where the file's own parser says ``type=int`` (the VAE example): the short pair."""
    if value is not None and type(value) is not int:
        pytest.skip("the option holds an int, or None where it is not given")
    source = (
        "from pytorch_lightning import Trainer\n\n\ndef options(parser):\n"
        f"    parser.add_argument('--value', type=int, default=None)\n\n\ntrainer = Trainer({flag}=args.value)\n"
    )
    assert "str(" not in run(source, "2.0").source
    _check(_rewritten_flags(source, "2.0", {"args": SimpleNamespace(value=value)}), record, flag, value)


@pytest.mark.parametrize(("flag", "value", "record"), _recorded())
def test_int_of_any_value(flag: str, value: Any, record: dict[str, Any]) -> None:
    """``gpus=int(use_gpu)`` (ReAgent): an int, whatever it was given; ``int("2")`` is the recorded ``gpus=2``."""
    if type(value) is not int:
        pytest.skip("int() gives an int: the records of int values are its cases")
    source = f"from pytorch_lightning import Trainer\ntrainer = Trainer({flag}=int(args.value))\n"
    for given in (value, str(value), float(value)):
        _check(_rewritten_flags(source, "2.0", {"args": SimpleNamespace(value=given)}), record, flag, value)


#: The idioms: what they evaluate to on a machine with that many GPUs is the recorded ``gpus=`` value.
IDIOMS = [
    "torch.cuda.device_count()",
    "min(1, torch.cuda.device_count())",
    "min(torch.cuda.device_count(), 1)",
    "int(torch.cuda.is_available())",
    "1 if torch.cuda.is_available() else 0",
    "-1 if torch.cuda.is_available() else 0",
]


def _idiom_rows() -> list[Any]:
    recorded = load("1.5.10")
    rows = []
    for idiom in IDIOMS:
        for machine, cuda in (("cpu", 0), ("cuda=2", 2), ("cuda=4", 4)):
            value = eval(idiom, {"torch": _fake_torch(cuda)})  # the idiom's value on that machine
            record = recorded[f"gpus: gpus={value!r} | {machine}"]
            for bound in (False, True):
                spelled = "AVAIL_GPUS = " if bound else ""
                rows.append(pytest.param(idiom, bound, cuda, record, id=f"{spelled}{idiom} on {machine}"))
    return rows


@pytest.mark.parametrize("target", ["2.0", "1.7"])
@pytest.mark.parametrize(("idiom", "bound", "cuda", "record"), _idiom_rows())
def test_idioms(idiom: str, bound: bool, cuda: int, record: dict[str, Any], target: str) -> None:
    """``gpus=min(1, torch.cuda.device_count())`` and the like, inline or bound once at module level."""
    if bound:
        source = (
            f"import torch\nfrom pytorch_lightning import Trainer\n\nAVAIL_GPUS = {idiom}\n\n\ndef build():\n"
            "    return Trainer(gpus=AVAIL_GPUS)\n\n\ntrainer = build()\n"
        )
    else:
        source = f"import torch\nfrom pytorch_lightning import Trainer\n\ntrainer = Trainer(gpus={idiom})\n"
    flags = _rewritten_flags(source, target, {"torch": _fake_torch(cuda)})
    _check(flags, record, "gpus", None)


#: 1.5's strategy class -> the strategy name the target's Trainer gets for it (the default picks one process).
_STRATEGY_SPELLED = {"SingleDevicePlugin": ("auto", None), "DDPPlugin": ("ddp",), "DDPSpawnPlugin": ("ddp_spawn",)}


def _strategy_rows() -> list[Any]:
    recorded = load("1.5.10")
    rows = []
    for idiom in IDIOMS:
        for machine, cuda in (("cpu", 0), ("cuda=2", 2), ("cuda=4", 4)):
            value = eval(idiom, {"torch": _fake_torch(cuda)})
            for strategy in ("ddp", "ddp_spawn"):
                record = recorded[f"strategy_gpus: strategy={strategy!r}, gpus={value!r} | {machine}"]
                rows.append(pytest.param(idiom, strategy, cuda, record, id=f"{strategy}, {idiom} on {machine}"))
    return rows


@pytest.mark.parametrize("target", ["2.0", "1.7"])
@pytest.mark.parametrize(("idiom", "strategy", "cuda", "record"), _strategy_rows())
def test_idioms_next_to_a_ddp_strategy(
    idiom: str, strategy: str, cuda: int, record: dict[str, Any], target: str
) -> None:
    """``Trainer(gpus=<idiom>, strategy="ddp")`` (lightly's examples): 1.5 ran one CPU process without DDP, so
    ``strategy="ddp" if ... else "auto"`` (None before 2.0) goes with the pair; recorded case by case."""
    source = (
        f"import torch\nfrom pytorch_lightning import Trainer\n\nGPUS = {idiom}\n"
        f"trainer = Trainer(gpus=GPUS, strategy={strategy!r})\n"
    )
    keys = frozenset({"accelerator", "devices", "strategy"})
    flags = _rewritten_flags(source, target, {"torch": _fake_torch(cuda)}, keys)
    _check(flags, record, "gpus", None)
    spelled = _STRATEGY_SPELLED[record["selected"]["strategy"]]
    assert flags["strategy"] in spelled, f"1.5 ran {record['selected']['strategy']}, the rewrite {flags['strategy']!r}"
    assert (flags["strategy"] is None) is (target < "2.0" and spelled[0] == "auto"), "2.0 rejects None"


def _guarded_rows() -> list[Any]:
    """Each int count on each recorded machine: 1.5 got ``strategy="ddp"`` with it where it was above 1, else none."""
    recorded = load("1.5.10")
    rows = []
    for value, machine in ((0, "cpu"), (1, "cuda=4"), (-1, "cuda=4"), (2, "cuda=2"), (4, "cuda=4")):
        key = (
            f"strategy_gpus: strategy='ddp', gpus={value!r} | {machine}"
            if value > 1
            else f"gpus: gpus={value!r} | {machine}"
        )
        rows.append(pytest.param(value, recorded[key], id=f"args.gpus={value} on {machine}"))
    return rows


@pytest.mark.parametrize("target", ["2.0", "1.7"])
@pytest.mark.parametrize("test", ["args.gpus > 1", "args.gpus and args.gpus > 1"])
@pytest.mark.parametrize(("value", "record"), _guarded_rows())
def test_strategy_guarded_by_the_count_itself(value: int, record: dict[str, Any], test: str, target: str) -> None:
    """``Trainer(gpus=args.gpus, strategy="ddp" if args.gpus > 1 else None)`` (nuwave, VideoGPT) with ``--gpus``
    an int: the pair is written, the strategy keeps its test (None is "auto" from 2.0); run with each value."""
    source = (
        "import argparse\nfrom pytorch_lightning import Trainer\n\nparser = argparse.ArgumentParser()\n"
        "parser.add_argument('--gpus', type=int)\n"
        f"trainer = Trainer(gpus=args.gpus, strategy='ddp' if {test} else None)\n"
    )
    keys = frozenset({"accelerator", "devices", "strategy"})
    flags = _rewritten_flags(source, target, {"args": SimpleNamespace(gpus=value), "argparse": argparse}, keys)
    _check(flags, record, "gpus", value)
    chosen = record["selected"]["strategy"]
    # No strategy passed on several GPUs (gpus=-1): 1.5's implicit ddp_spawn is left to the target's own choice, as
    # for a literal gpus=-1 (MIGRATION.md, "Selection policy": reported, not kept).
    spelled = ("auto", None) if value <= 1 and chosen == "DDPSpawnPlugin" else _STRATEGY_SPELLED[chosen]
    assert flags["strategy"] in spelled, f"1.5 ran {chosen}, the rewrite {flags['strategy']!r}"
    assert flags["strategy"] is not None or target < "2.0", "2.0 rejects None"


def _ddp_rows() -> list[Any]:
    """Each int count on each recorded machine with ``strategy='ddp'`` (1.5 dropped it for one CPU process)."""
    recorded = load("1.5.10")
    machines = ((0, "cpu"), (1, "cuda=4"), (-1, "cuda=4"), (2, "cuda=2"), (4, "cuda=4"))
    key = "strategy_gpus: strategy='ddp', gpus={!r} | {}"
    return [pytest.param(v, recorded[key.format(v, m)], id=f"args.gpus={v} on {m}") for v, m in machines]


@pytest.mark.parametrize("target", ["2.0", "1.7"])
@pytest.mark.parametrize(("value", "record"), _ddp_rows())
def test_strategy_beside_another_flag_tested_on_the_count(value: int, record: dict[str, Any], target: str) -> None:
    """``Trainer(gpus=args.gpus, strategy="ddp", sync_batchnorm=True if args.gpus > 1 else False)`` (bolts'
    finetuners): the pair is written, the strategy follows it, the other flag keeps its test; run with each value."""
    source = (
        "import argparse\nfrom pytorch_lightning import Trainer\n\nparser = argparse.ArgumentParser()\n"
        "parser.add_argument('--gpus', type=int)\n"
        "trainer = Trainer(gpus=args.gpus, strategy='ddp', sync_batchnorm=True if args.gpus > 1 else False)\n"
    )
    keys = frozenset({"accelerator", "devices", "strategy", "sync_batchnorm"})
    flags = _rewritten_flags(source, target, {"args": SimpleNamespace(gpus=value), "argparse": argparse}, keys)
    _check(flags, record, "gpus", value)
    chosen = record["selected"]["strategy"]
    assert flags["strategy"] in _STRATEGY_SPELLED[chosen], f"1.5 ran {chosen}, the rewrite {flags['strategy']!r}"
    assert flags["sync_batchnorm"] is (value > 1)


@pytest.mark.parametrize("target", ["2.0", "1.7"])
@pytest.mark.parametrize(("value", "record"), _guarded_rows())
def test_device_count_under_an_if_of_itself(value: int, record: dict[str, Any], target: str) -> None:
    """``if args.gpus > 1: Trainer(gpus=args.gpus, strategy="ddp") else: Trainer(gpus=args.gpus)``: each call is
    rewritten for the values its branch can see (``args.gpus`` untyped: a string would raise at the test), and run
    with each recorded value."""
    source = (
        "from pytorch_lightning import Trainer\n\nif args.gpus > 1:\n"
        "    trainer = Trainer(gpus=args.gpus, strategy='ddp')\nelse:\n    trainer = Trainer(gpus=args.gpus)\n"
    )
    keys = frozenset({"accelerator", "devices", *(["strategy"] if value > 1 else [])})
    flags = _rewritten_flags(source, target, {"args": SimpleNamespace(gpus=value)}, keys)
    _check(flags, record, "gpus", value)
    if value > 1:
        assert flags["strategy"] == "ddp" and record["selected"]["strategy"] == "DDPPlugin"


def _list_rows() -> list[Any]:
    """The recorded ``gpus=[...]`` lists of one or more indices (those 1.5 refused too: the rewrite must refuse them)."""
    rows = []
    for case_id, record in sorted(load("1.5.10").items()):
        kwargs = record["case"]["kwargs"]
        gpus = kwargs.get("gpus")
        if record["case"]["group"] == "gpus" and set(kwargs) == {"gpus"} and isinstance(gpus, list) and gpus:
            rows.append(pytest.param(kwargs["gpus"], record, id=case_id))
    return rows


@pytest.mark.parametrize("target", ["2.0", "1.7"])
@pytest.mark.parametrize(("indices", "record"), _list_rows())
def test_list_display_of_indices(indices: list[int], record: dict[str, Any], target: str) -> None:
    """``gpus=[args.device]`` (torchgeo, NeMo): a list of indices whatever its items hold, so ``devices=`` takes it
    as it is next to ``accelerator="gpu"``; executed with the items bound to the recorded indices."""
    items = ", ".join(f"args.i{n}" for n in range(len(indices)))
    source = f"from pytorch_lightning import Trainer\ntrainer = Trainer(gpus=[{items}])\n"
    args = SimpleNamespace(**{f"i{n}": index for n, index in enumerate(indices)})
    _check(_rewritten_flags(source, target, {"args": args}), record, "gpus", indices)


def _list_branch_rows() -> list[Any]:
    recorded = load("1.5.10")
    rows = []
    for machine, cuda in (("cpu", 0), ("cuda=4", 4)):
        for other in ("None", "0", "[]"):
            value = [1] if cuda else eval(other)
            # 1.5 chose the CPU for [] whatever the machine (recorded on a CUDA host only)
            record = recorded.get(f"gpus: gpus={value!r} | {machine}") or recorded[f"gpus: gpus={value!r} | cuda=4"]
            rows.append(pytest.param(other, cuda, record, id=f"[args.device] if cuda else {other} on {machine}"))
    return rows


@pytest.mark.parametrize("target", ["2.0", "1.7"])
@pytest.mark.parametrize(("other", "cuda", "record"), _list_branch_rows())
def test_list_display_in_a_branch(other: str, cuda: int, record: dict[str, Any], target: str) -> None:
    """``gpus=[args.device] if torch.cuda.is_available() else None`` (torchgeo, pytorch-forecasting): each branch
    as it selects alone, under the same test."""
    source = (
        "import torch\nfrom pytorch_lightning import Trainer\n\n"
        f"trainer = Trainer(gpus=[args.device] if torch.cuda.is_available() else {other})\n"
    )
    names = {"torch": _fake_torch(cuda), "args": SimpleNamespace(device=1)}
    _check(_rewritten_flags(source, target, names), record, "gpus", None)

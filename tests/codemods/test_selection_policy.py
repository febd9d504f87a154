"""migrate-trainer's selection policy (MIGRATION.md, "Selection policy") as a table.

Each row: 1.5 flags -> the flags migrate-trainer writes at targets 1.6, 1.9 and 2.0, and whether it reports an
implicit 1.5 choice ("implicit: ...", kind "report") or leaves a TODO. A row that pins a case recorded from the
real Lightning 1.5.10 (tests/data/lightning-1.5.10.json) names it, and the recorded selection must be what the
row claims 1.5 did. Rows without a recording cite 1.5.10's connector logic in their id.

The rules run on the syntax-free Plan here (what both front ends share); the fixtures policy_* run the same
cases through the Python and YAML front ends.
"""

from __future__ import annotations

import ast
import io
import json
import re
from dataclasses import dataclass
from typing import Any

import pytest
from ruamel.yaml import YAML

from codemods.frontends.python import transform_python
from codemods.frontends.yaml.pipeline import transform_yaml
from codemods.model import Options
from codemods.plan.apply_rules import run_flag_rules
from codemods.plan.model import IMPLICIT, LEGACY_FLAG_RULES, Note, Plan, Value
from codemods.rules import REGISTRY
from legacy_api.renames import PL, version_tuple
from tests.parity import closed_loop, harness

REFERENCE = harness.load("1.5.10")
TARGETS = ("1.6", "1.9", "2.0")
#: Strategy names the policy never writes where the user did not.
NEVER_ADDED = ("ddp_spawn", "single_device", "_find_unused_parameters_true")


@dataclass(frozen=True)
class Name:
    """A flag value that is not a literal (``gpus=n``): the rules see UNKNOWN, spelled ``name``."""

    name: str


def _value(value: Any) -> Value:
    return Value(source=value.name) if isinstance(value, Name) else Value(lit=value, source=repr(value))


def _read_back(value: Value) -> Any:
    return value.lit if value.known else Name(str(value.source))


def migrate(flags: dict[str, Any], target: str, opaque: bool = False) -> tuple[dict[str, Any], list[Note]]:
    """The flags after the enabled flag rules ran at ``target``, and the notes they left."""
    items = [(key, _value(value)) for key, value in flags.items()]
    plan = Plan(
        items, version_tuple(target), PL, lambda rule: True, opaque_rest=opaque, origin=dict.fromkeys(flags, "explicit")
    )
    run_flag_rules(plan)
    return {key: _read_back(value) for key, value in plan.items}, plan.notes


@dataclass(frozen=True)
class Expect:
    """The migrated flags at one target; ``implicit``: an "implicit: ..." report; ``todo``: a TODO."""

    flags: dict[str, Any]
    implicit: bool = False
    todo: bool = False


@dataclass(frozen=True)
class Pin:
    """What Lightning 1.5.10 selected for the recorded case ``case`` (``error``: the exception type it raised)."""

    case: str
    strategy: str | None = None
    accelerator: str | None = None
    devices: int | None = None
    error: str | None = None


@dataclass(frozen=True)
class Row:
    flags: dict[str, Any]
    at: dict[str, Expect]
    pin: Pin | None = None
    opaque: bool = False


def row(
    flags: dict[str, Any],
    at_16: Expect,
    at_19: Expect,
    at_20: Expect | None = None,
    pin: Pin | None = None,
    *,
    id: str,
    opaque: bool = False,
) -> Any:
    return pytest.param(Row(flags, {"1.6": at_16, "1.9": at_19, "2.0": at_20 or at_19}, pin, opaque), id=id)


def same(flags: dict[str, Any], implicit: bool = False, todo: bool = False) -> Expect:
    return Expect(dict(flags), implicit, todo)


CPU1 = ("SingleDeviceStrategy", "CPUAccelerator", 1)

ROWS = [
    # --- explicit choices are kept exactly --------------------------------------------------------------------
    row(
        {"strategy": "ddp", "accelerator": "cpu", "devices": 2},
        same({"strategy": "ddp", "accelerator": "cpu", "devices": 2}),
        same({"strategy": "ddp", "accelerator": "cpu", "devices": 2}),
        same({"strategy": "ddp", "accelerator": "cpu", "devices": 2}, implicit=True),
        Pin("strategy: strategy='ddp', accelerator='cpu', devices=2 | cpu", "DDPStrategy", "CPUAccelerator", 2),
        id="explicit ddp on 2 CPU processes is kept; 2.0 reports find_unused_parameters' new default, no TODO",
    ),
    row(
        {"strategy": "ddp_spawn", "accelerator": "cpu", "devices": 2},
        same({"strategy": "ddp_spawn", "accelerator": "cpu", "devices": 2}),
        same({"strategy": "ddp_spawn", "accelerator": "cpu", "devices": 2}),
        same({"strategy": "ddp_spawn", "accelerator": "cpu", "devices": 2}, implicit=True),
        Pin(
            "strategy: strategy='ddp_spawn', accelerator='cpu', devices=2 | cpu",
            "DDPSpawnStrategy",
            "CPUAccelerator",
            2,
        ),
        id="a ddp_spawn the user wrote is kept (only 2.0's find_unused_parameters default is reported)",
    ),
    row(
        {"strategy": "ddp_find_unused_parameters_false", "accelerator": "cpu", "devices": 2},
        same({"strategy": "ddp_find_unused_parameters_false", "accelerator": "cpu", "devices": 2}),
        same({"strategy": "ddp_find_unused_parameters_false", "accelerator": "cpu", "devices": 2}),
        pin=Pin(
            "strategy: strategy='ddp_find_unused_parameters_false', accelerator='cpu', devices=2 | cpu",
            "DDPStrategy",
            "CPUAccelerator",
            2,
        ),
        id="an explicit find_unused_parameters=False is kept, with nothing to report",
    ),
    row(
        {"accelerator": "dp", "num_processes": 2},
        same({"strategy": "dp", "num_processes": 2}),
        same({"strategy": "ddp", "accelerator": "cpu", "devices": 2}),
        same({"strategy": "ddp", "accelerator": "cpu", "devices": 2}, implicit=True),
        Pin("accelerator_as_strategy: num_processes=2, accelerator='dp' | cpu", "DDPStrategy", "CPUAccelerator", 2),
        id="dp on 2 CPU processes ran ddp in 1.5 (and 1.6): ddp is spelled from 1.7",
    ),
    # --- a DDP name that had no effect on one CPU process: dropped, never single_device ------------------------
    row(
        {"strategy": "ddp"},
        same({}),
        same({}),
        same({}, implicit=True),  # Trainer() itself: trainer_defaults reports 2.0's accelerator='auto'
        Pin("strategy: strategy='ddp' | cpu", *CPU1),
        id="ddp on one CPU process had no effect: dropped at every target, never strategy='single_device'",
    ),
    row(
        {"accelerator": "ddp_spawn"},
        same({}),
        same({}),
        same({}, implicit=True),
        Pin("accelerator_as_strategy: accelerator='ddp_spawn' | cpu", *CPU1),
        id="accelerator='ddp_spawn' on one CPU process had no effect: dropped",
    ),
    row(
        {"accelerator": "dp"},
        same({}),
        same({}),
        same({}, implicit=True),
        Pin("accelerator_as_strategy: accelerator='dp' | cpu", *CPU1),
        id="accelerator='dp' on one CPU process had no effect: dropped",
    ),
    row(
        {"gpus": 0, "accelerator": "ddp"},
        same({"gpus": 0}),
        same({}),
        same({"accelerator": "cpu", "devices": 1}),
        id="(a) gpus=0 with accelerator='ddp' is one CPU device, no strategy key (1.5.10: distributed had no effect)",
    ),
    row(
        {"gpus": "0", "accelerator": "ddp2", "max_epochs": 3},
        same({"gpus": "0", "max_epochs": 3}),
        same({"max_epochs": 3}),
        same({"max_epochs": 3, "accelerator": "cpu", "devices": 1}),
        id="(a) gpus='0' with accelerator='ddp2' is one CPU device too",
    ),
    row(
        {"gpus": 0, "accelerator": "ddp", "num_processes": 2},
        same({"gpus": 0, "strategy": "ddp", "num_processes": 2}),
        same({"strategy": "ddp", "accelerator": "cpu", "devices": 2}),
        same({"strategy": "ddp", "accelerator": "cpu", "devices": 2}, implicit=True),
        id="gpus=0 with accelerator='ddp' on 2 CPU processes is DDP on the CPU (1.5.10: ddp with num_processes > 1)",
    ),
    row(
        {"strategy": "ddp", "tpu_cores": 8},
        same({"tpu_cores": 8}),
        same({"accelerator": "tpu", "devices": 8}),
        id="a ddp name next to TPU cores was ignored by 1.5: dropped (1.5.10: TPU strategy for tpu_cores)",
    ),
    # --- (b), (c): a falsy device flag never decides the accelerator -------------------------------------------
    row(
        {"gpus": 0, "tpu_cores": 8},
        same({"gpus": 0, "tpu_cores": 8}),
        same({"accelerator": "tpu", "devices": 8}),
        id="(b) gpus=0 next to tpu_cores=8 is accelerator='tpu', devices=8 (1.5.10: a falsy gpus is no GPU)",
    ),
    row(
        {"gpus": 0},
        same({"gpus": 0}),
        same({}),
        same({}, todo=True),
        opaque=True,
        id="(b) gpus=0 in a dict splatted next to flags we cannot see: dropped, never accelerator='cpu'; 2.0 TODO",
    ),
    row(
        {"gpus": 0, "devices": 2, "accelerator": "gpu"},
        same({"gpus": 0, "devices": 2, "accelerator": "gpu"}),
        same({"devices": 2, "accelerator": "gpu"}),
        same({"devices": 2, "accelerator": "gpu"}, implicit=True),
        Pin("precedence: gpus=0, devices=2, accelerator='gpu' | cuda=4", "DDPSpawnStrategy", "CUDAAccelerator", 2),
        id="gpus=0 beside accelerator='gpu', devices=2: the GPUs; 2.0's ddp launcher is reported, not ddp_spawn",
    ),
    row(
        {"gpus": 0, "devices": 2},
        same({"gpus": 0, "devices": 2}),
        same({"devices": 2}),
        same({"devices": 2, "accelerator": "cpu"}, implicit=True),
        id="gpus=0 beside devices=2 keeps devices=2 (2.0 only adds the CPU it meant)",
    ),
    row(
        {"gpus": None},
        same({"gpus": None}),
        same({}),
        same({"accelerator": "cpu", "devices": 1}),
        Pin("gpus: gpus=None | cuda=4", *CPU1),
        id="gpus=None is the CPU",
    ),
    row(
        {"gpus": []},
        same({"gpus": []}),
        same({}),
        same({"accelerator": "cpu", "devices": 1}),
        Pin("gpus: gpus=[] | cuda=4", *CPU1),
        id="gpus=[] is the CPU",
    ),
    row(
        {"gpus": ""},
        same({"gpus": ""}),
        same({}),
        same({"accelerator": "cpu", "devices": 1}),
        Pin("gpus: gpus='' | cuda=4", error="ValueError"),
        id="gpus='' crashed 1.5 (int('')); compat and the codemod read it as no GPUs, like '0'",
    ),
    # --- implicit launcher choices: reported, never spelled -----------------------------------------------------
    row(
        {"gpus": 2},
        same({"gpus": 2}),
        same({"accelerator": "gpu", "devices": 2}),
        same({"accelerator": "gpu", "devices": 2}, implicit=True),
        Pin("gpus: gpus=2 | cuda=4", "DDPSpawnStrategy", "CUDAAccelerator", 2),
        id="gpus=2 ran ddp_spawn: 1.6-1.9 still do; 2.0's ddp is reported, never strategy='ddp_spawn'",
    ),
    row(
        {"num_nodes": 4, "gpus": 4},
        same({"num_nodes": 4, "gpus": 4}, implicit=True),
        same({"num_nodes": 4, "accelerator": "gpu", "devices": 4}, implicit=True),
        pin=Pin("num_nodes: num_nodes=4, gpus=4 | cuda=4", "DDPSpawnStrategy", "CUDAAccelerator", 4),
        id="several GPUs on several nodes ran ddp_spawn; 1.6+ picks ddp: reported at every target",
    ),
    row(
        {"tpu_cores": 1},
        same({"tpu_cores": 1}, implicit=True),
        same({"accelerator": "tpu", "devices": 1}, implicit=True),
        pin=Pin("tpu_cores: tpu_cores=1 | cpu+tpu", "TPUSpawnStrategy", "TPUAccelerator", 1),
        id="tpu_cores=1 spawned one XLA process; 1.6+ runs it in place: reported, no TPUSpawnStrategy()",
    ),
    row(
        {"accelerator": "auto", "devices": 1},
        same({"accelerator": "auto", "devices": 1}, implicit=True),
        same({"accelerator": "auto", "devices": 1}, implicit=True),
        pin=Pin("devices: accelerator='auto', devices=1 | cpu+tpu", "TPUSpawnStrategy", "TPUAccelerator", 1),
        id="accelerator='auto', devices=1 spawned one XLA process on a TPU host: reported, no TODO",
    ),
    row(
        {"accelerator": "ddp_cpu", "num_processes": 2},
        same({"accelerator": "cpu", "devices": 2}, implicit=True),
        same({"accelerator": "cpu", "devices": 2}, implicit=True),
        pin=Pin(
            "accelerator_as_strategy: num_processes=2, accelerator='ddp_cpu' | cpu",
            "DDPSpawnStrategy",
            "CPUAccelerator",
            2,
        ),
        id="ddp_cpu is 2 CPU devices; its spawn launcher is the target's default, never strategy='ddp_spawn'",
    ),
    row(
        {"accelerator": "ddp_cpu"},
        same({"accelerator": "cpu", "devices": 1, "strategy": "ddp"}, implicit=True),
        same({"accelerator": "cpu", "devices": 1, "strategy": "ddp"}, implicit=True),
        pin=Pin("accelerator_as_strategy: accelerator='ddp_cpu' | cpu", "DDPSpawnStrategy", "CPUAccelerator", 1),
        id="ddp_cpu with one process is a one-process DDP world, as 1.5 ran it (its spawn launcher is the target's)",
    ),
    # --- spelled out: the target would silently train on another accelerator -----------------------------------
    row(
        {"accelerator": "auto"},
        same({"accelerator": "cpu"}),
        same({"accelerator": "cpu"}),
        pin=Pin("accelerator: accelerator='auto' | cuda=4", *CPU1),
        id="accelerator='auto' without a count ran on the CPU; 1.6+ would take the GPUs: accelerator='cpu'",
    ),
    row(
        {},
        same({}),
        same({}),
        same({}, implicit=True),
        Pin("defaults: (no flags) | cpu", *CPU1),
        id="Trainer(): 2.0's accelerator='auto' is a default it changed on purpose: reported, no TODO",
    ),
    row(
        {"max_epochs": 3, "fast_dev_run": True},
        same({"max_epochs": 3, "fast_dev_run": True}),
        same({"max_epochs": 3, "fast_dev_run": True}),
        same({"max_epochs": 3, "fast_dev_run": True}, implicit=True),
        id="(F13) a test's Trainer(fast_dev_run=True): 2.0's device default is reported, not a TODO",
    ),
    row(
        {"num_nodes": 2},
        same({"num_nodes": 2}),
        same({"num_nodes": 2}),
        same({"num_nodes": 2, "accelerator": "cpu", "devices": 1}),
        id="(F13) num_nodes=2 without devices: 2.0 would take every GPU of every node: 1.x's one CPU is spelled",
    ),
    row(
        {"sync_batchnorm": True, "max_epochs": 3},
        same({"sync_batchnorm": True, "max_epochs": 3}),
        same({"sync_batchnorm": True, "max_epochs": 3}),
        same({"sync_batchnorm": True, "max_epochs": 3, "accelerator": "cpu", "devices": 1}),
        id="(F13) sync_batchnorm=True was a no-op on 1.x's one CPU; on 2.0's every GPU it syncs: one CPU spelled",
    ),
    row(
        {"strategy": "ddp_find_unused_parameters_false"},
        same({"strategy": "ddp_find_unused_parameters_false"}),
        same({"strategy": "ddp_find_unused_parameters_false"}),
        same({"strategy": "ddp_find_unused_parameters_false", "accelerator": "cpu", "devices": 1}),
        id="(F13) a strategy without devices: 2.0 would run it over every GPU: 1.x's one CPU is spelled",
    ),
    # --- (F6) a value that is not a literal silences no other flag --------------------------------------------
    row(
        {"accelerator": Name("acc"), "gpus": 2},
        same({"accelerator": Name("acc"), "gpus": 2}, todo=True),
        same({"accelerator": Name("acc"), "gpus": 2}, todo=True),
        id="(F6) accelerator=acc may be a strategy: gpus=2 stays (acc may decide what it selects), named in a TODO",
    ),
    row(
        {"num_processes": Name("n"), "gpus": 0},
        same({"num_processes": Name("n"), "gpus": 0}),
        same({"num_processes": Name("n")}, todo=True),
        id="(F6) gpus=0 next to num_processes=n chose nothing whatever n is: removed; n gets the TODO",
    ),
    row(
        {"num_processes": Name("n"), "gpus": 2},
        same({"num_processes": Name("n"), "gpus": 2}),
        same({"num_processes": Name("n"), "gpus": 2}, todo=True),
        id="(F6) gpus=2 next to num_processes=n: n may change what it selects: kept, named in a TODO",
    ),
    row(
        {"gpus": Name("gpus"), "amp_backend": "native", "amp_level": "O2", "replace_sampler_ddp": False},
        same({"gpus": Name("gpus"), "amp_backend": "native", "amp_level": "O2", "replace_sampler_ddp": False}),
        same({"gpus": Name("gpus"), "replace_sampler_ddp": False}, todo=True),
        same({"gpus": Name("gpus"), "use_distributed_sampler": False}, todo=True),
        id="(F6) gpus=gpus gets a TODO; the AMP and sampler flags, which choose no device, are still migrated",
    ),
    # --- (F7) a distributed_backend that is not a literal is not renamed into a flag it may be invalid for ------
    row(
        {"distributed_backend": Name("backend")},
        same({"distributed_backend": Name("backend")}, todo=True),
        same({"distributed_backend": Name("backend")}, todo=True),
        id="(F7) distributed_backend=backend may be a strategy or a device: left, a TODO says where each goes",
    ),
    row(
        {"distributed_backend": Name("backend"), "gpus": Name("gpus")},
        same({"distributed_backend": Name("backend"), "gpus": Name("gpus")}, todo=True),
        same({"distributed_backend": Name("backend"), "gpus": Name("gpus")}, todo=True),
        id="(F7) distributed_backend=backend next to gpus=gpus: both left, both named",
    ),
    row(
        {"accelerator": Name("acc"), "max_epochs": 1},
        same({"accelerator": Name("acc"), "max_epochs": 1}, todo=True),
        same({"accelerator": Name("acc"), "max_epochs": 1}, todo=True),
        id="(F7) accelerator=acc may be a strategy name: left with a TODO, never renamed to strategy=",
    ),
]

# (c) every falsy device flag next to every truthy one, in both orders: the truthy one decides.
_FALSY: tuple[Any, ...] = (0, None, "0", [], "")
_TRUTHY = {"tpu_cores": ("tpu", 8), "ipus": ("ipu", 4), "gpus": ("gpu", 2), "num_processes": ("cpu", 2)}
for _falsy_flag in _TRUTHY:
    for _falsy in _FALSY:
        for _flag, (_kind, _count) in _TRUTHY.items():
            if _flag == _falsy_flag:
                continue
            for _flags in ({_falsy_flag: _falsy, _flag: _count}, {_flag: _count, _falsy_flag: _falsy}):
                _migrated = {"accelerator": _kind, "devices": _count}
                _several = _kind in ("gpu", "cpu")  # 2.0 reports its ddp launcher; TPUs and IPUs keep their own
                ROWS.append(
                    row(
                        _flags,
                        same(_flags),
                        same(_migrated),
                        same(_migrated, implicit=_several),
                        id=f"(c) {_falsy_flag}={_falsy!r} next to {_flag}={_count}: accelerator={_kind!r}, "
                        f"devices={_count}" + (" (falsy first)" if next(iter(_flags)) == _falsy_flag else ""),
                    )
                )


@pytest.mark.parametrize("case", ROWS)
@pytest.mark.parametrize("target", TARGETS)
def test_row(case: Row, target: str) -> None:
    expected = case.at[target]
    flags, notes = migrate(case.flags, target, case.opaque)
    assert flags == expected.flags
    implicit = [note for note in notes if note.kind == "report" and note.message.startswith(IMPLICIT)]
    assert bool(implicit) == expected.implicit, [note.message for note in notes]
    assert any(note.kind == "todo" for note in notes) == expected.todo, [note.message for note in notes]
    # (F6) A legacy flag the target removed is never left silently: a TODO names it.
    todos = " ".join(note.message for note in notes if note.kind == "todo")
    for key in flags:
        rule = LEGACY_FLAG_RULES.get(key)
        if rule is not None and version_tuple(target) >= REGISTRY[rule].version:
            assert re.search(rf"\b{key}\b", todos), f"{key} left without a TODO naming it: {todos!r}"


@pytest.mark.parametrize("case", [param for param in ROWS if param.values[0].pin is not None])
def test_row_pins_what_lightning_1_5_10_selected(case: Row) -> None:
    assert case.pin is not None
    record = REFERENCE[case.pin.case]
    assert record["case"]["kwargs"] == case.flags, "the row's flags are the recorded case's"
    selected = harness.lightning_selection(record)
    if case.pin.error is not None:
        assert selected["outcome"] == "error" and selected["error"].startswith(case.pin.error)
        return
    claim = (case.pin.strategy, case.pin.accelerator, case.pin.devices)
    assert (selected["strategy"], selected["accelerator"], selected["num_devices"]) == claim


def test_every_note_has_a_kind() -> None:
    assert Note("r", "m").kind == "fix"
    assert Note("r", "m", todo=True).kind == "todo"
    assert Note("r", "m", kind="todo").todo
    assert not Note("r", "m", kind="report").todo


# --- never spelled: over every recorded 1.5.10 case, through both front ends, at every target ------------------
def _call_keywords(source: str) -> dict[str, Any]:
    keywords: dict[str, Any] = {}
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and closed_loop._callee(node.func) == "Trainer":
            for keyword in node.keywords:
                try:
                    keywords[str(keyword.arg)] = ast.literal_eval(keyword.value)
                except ValueError:
                    keywords[str(keyword.arg)] = ast.unparse(keyword.value)
    return keywords


#: One recorded case per distinct set of flags (the same flags recur on other machines and clusters).
_CASES = sorted(
    {
        json.dumps(record["case"]["kwargs"], sort_keys=True): case_id
        for case_id, record in sorted(REFERENCE.items())
        if record["outcome"] != "unavailable"
    }.values()
)
_STRATEGY_SOURCES = ("strategy", "accelerator", "distributed_backend", "plugins")


def _check_never_added(original: dict[str, Any], migrated: dict[str, Any]) -> None:
    had = " ".join(repr(original.get(key)) for key in _STRATEGY_SOURCES)
    strategy = migrated.get("strategy")
    if strategy is not None:
        assert any(key in original for key in _STRATEGY_SOURCES), f"a strategy was added: {strategy!r}"
    for name in NEVER_ADDED:
        assert name not in repr(strategy) or name in had, f"{name} was spelled out: {migrated}"


@pytest.mark.parametrize("target", TARGETS)
def test_python_never_spells_an_implicit_choice(target: str) -> None:
    for case_id in _CASES:
        kwargs = REFERENCE[case_id]["case"]["kwargs"]
        outcome = transform_python(closed_loop.render(kwargs), Options(target=target))
        assert outcome.error is None, case_id
        _check_never_added(kwargs, _call_keywords(outcome.source))


def _yaml_text(kwargs: dict[str, Any]) -> str:
    stream = io.StringIO()
    YAML().dump({"trainer": kwargs}, stream)
    return stream.getvalue()


def _plain(value: Any) -> bool:
    if isinstance(value, dict):
        return False
    return all(_plain(v) for v in value) if isinstance(value, list) else True


@pytest.mark.parametrize("target", TARGETS)
def test_yaml_never_spells_an_implicit_choice(target: str) -> None:
    for case_id in _CASES:
        kwargs = REFERENCE[case_id]["case"]["kwargs"]
        if not all(_plain(value) for value in kwargs.values()):
            continue  # instances: the Python front end's business (class_path mappings have their own fixtures)
        outcome = transform_yaml(_yaml_text(kwargs), Options(target=target), "config.yaml")
        if outcome.error is not None:
            continue  # the file is left as it was: nothing spelled (the front end reports why)
        migrated = YAML(typ="safe").load(outcome.source)["trainer"] or {}
        _check_never_added(kwargs, migrated)


# --- (F10) a strategy that reaches plugins= through a name is named, never moved --------------------------------
@pytest.mark.parametrize("target", TARGETS)
def test_a_name_bound_to_a_strategy_in_plugins_is_named_not_moved(target: str) -> None:
    ds = Value(source="ds", bound_strategy="DeepSpeedStrategy")
    plan = Plan([("plugins", ds)], version_tuple(target), PL, lambda rule: True, origin={"plugins": "explicit"})
    run_flag_rules(plan)
    assert plan.get("plugins") is ds and "strategy" not in plan
    todos = [note.message for note in plan.notes if note.rule == "plugins_strategy" and note.kind == "todo"]
    assert bool(todos) == (version_tuple(target) >= (1, 7)), todos
    assert all(message.startswith("plugins=ds ") and "strategy=" in message for message in todos)


# --- (F13) a section Hydra composes with other configs gets its devices from them -----------------------------
@pytest.mark.parametrize("flags", [{"max_epochs": 1}, {"sync_batchnorm": True}, {"num_nodes": 2}], ids=str)
def test_a_composed_section_is_reported_never_a_todo(flags: dict[str, Any]) -> None:
    items = [(key, Value(lit=value, source=repr(value))) for key, value in flags.items()]
    plan = Plan(items, (2, 0), PL, lambda rule: True, composed=True, origin=dict.fromkeys(flags, "explicit"))
    run_flag_rules(plan)
    assert not [note.message for note in plan.notes if note.kind == "todo"]
    assert any(note.rule == "trainer_defaults" and note.message.startswith(IMPLICIT) for note in plan.notes)

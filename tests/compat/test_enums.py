"""The 1.5 string enums, generated from the renames table: values, comparisons, and one warning per member read."""

from __future__ import annotations

import pickle
import warnings
from typing import Any

import pytest

import compat
from compat._rows import ENUMS

MEMBER_ROWS = [
    pytest.param(qualified, member, value, id=f"{qualified}.{member}")
    for qualified, (_, _, members) in ENUMS.items()
    for member, value in members.items()
]


def enum(qualified: str) -> Any:
    module, _, name = f"compat.{qualified}".rpartition(".")
    namespace: dict[str, Any] = {}
    exec(f"from {module} import {name} as value", namespace)  # importing the enum itself does not warn
    return namespace["value"]


@pytest.mark.parametrize(("qualified", "member", "value"), MEMBER_ROWS)
def test_member_access_warns_with_the_string_to_use(qualified: str, member: str, value: str) -> None:
    cls = enum(qualified)
    with pytest.warns(compat.CompatDeprecationWarning) as record:
        found = getattr(cls, member)
    assert len(record) == 1 and record[0].filename == __file__
    message = str(record[0].message)
    assert message.startswith(f"`{cls.__name__}.{member}` is deprecated as of Lightning")
    assert f"Use the string {value!r} instead." in message and "{self.value" not in message
    assert found == value and found == value.upper() and isinstance(found, str)
    assert hash(found) == hash(value.lower())


@pytest.mark.parametrize(
    ("access", "expected"),
    [
        pytest.param(lambda e: e["DDP_SPAWN"], "ddp_spawn", id="item lookup"),
        pytest.param(lambda e: e("ddp"), "ddp", id="call by value"),
        pytest.param(lambda e: e("DDP"), "ddp", id="call by value in another case"),
    ],
)
def test_other_member_lookups_warn(access: Any, expected: str) -> None:
    cls = enum("utilities.enums.DistributedType")
    with pytest.warns(compat.CompatDeprecationWarning, match=f"Use the string {expected!r} instead") as record:
        assert access(cls) == expected
    assert len(record) == 1


def test_both_paths_give_one_enum_and_internal_use_is_silent() -> None:
    assert enum("utilities.DistributedType") is enum("utilities.enums.DistributedType")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        members = list(enum("utilities.enums.DeviceType"))  # iteration is the enum's own machinery
        assert [m.value for m in members] == ["cpu", "gpu", "ipu", "tpu", "hpu"]
        # Unpickling is not the user reading a member: a worker's result must not repeat its warning.
        assert pickle.loads(pickle.dumps(members[1])) is members[1]


def test_private_1_6_enums_are_there_too() -> None:
    with pytest.warns(compat.CompatDeprecationWarning, match="`_StrategyType.BAGUA`"):
        assert enum("utilities.enums._StrategyType").BAGUA == "bagua"
    with pytest.warns(compat.CompatDeprecationWarning, match="`_AcceleratorType.HPU`"):
        assert enum("utilities.enums._AcceleratorType").HPU == "HPU"


def test_enum_members_work_as_flags(machine: Any) -> None:
    machine(cuda=2)
    distributed = enum("utilities.enums.DistributedType")
    with pytest.warns(compat.CompatDeprecationWarning) as record:
        connector = compat.AcceleratorConnector(gpus=2, strategy=distributed.DDP)
    assert connector.strategy.registered_name == "ddp"
    assert [str(w.message).split(" is ")[0] for w in record] == [
        "`DistributedType.DDP`",
        "`AcceleratorConnector(gpus=2)`",
    ]

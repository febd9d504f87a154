"""Rule ``precision_plugins``: precision plugins are renamed (NativeMixed, TPU, *Plugin -> *Precision) or flagged
(apex, FairScale); their 1.x precision arguments become 2.x's.

Its own rows (facts: legacy_api/LIGHTNING_2X.md); the fixture cases that show it run in
tests/codemods/test_fixtures.py.
"""

from __future__ import annotations

import pytest

from legacy_api.renames import TARGET_VERSIONS, version_tuple
from tests.codemods.helpers import check_transformed, exercised, run

RULE = "precision_plugins"
IMPORT = "from pytorch_lightning.plugins import {}\n"
TARGETS_2X = tuple(t for t in TARGET_VERSIONS if version_tuple(t) >= (2, 0))


def _code(cls: str, call: str) -> str:
    return IMPORT.format(cls) + f"p = {call}\n"


TRANSFORMED = [
    pytest.param(
        "NativeMixedPrecisionPlugin",
        'NativeMixedPrecisionPlugin(16, "cuda")',
        "MixedPrecisionPlugin",
        'MixedPrecisionPlugin("16-mixed", "cuda")',
        "2.0",
        id="issue 11: MixedPrecisionPlugin(16, 'cuda') is '16-mixed' at 2.0",
    ),
    pytest.param(
        "MixedPrecisionPlugin",
        'MixedPrecisionPlugin(16, "cuda")',
        "MixedPrecision",
        'MixedPrecision("16-mixed", "cuda")',
        "2.6",
        id="1.9's MixedPrecisionPlugin(16) is MixedPrecision('16-mixed') at the default target",
    ),
    pytest.param(
        "NativeMixedPrecisionPlugin",
        "NativeMixedPrecisionPlugin(precision='bf16', device='cuda', scaler=s)",
        "MixedPrecision",
        "MixedPrecision(precision='bf16-mixed', device='cuda', scaler=s)",
        "2.2",
        id="keyword bf16 keeps its quotes and the other arguments",
    ),
    pytest.param(
        "NativeMixedPrecisionPlugin",
        "NativeMixedPrecisionPlugin('16', 'cpu')",
        "MixedPrecisionPlugin",
        "MixedPrecisionPlugin('16-mixed', 'cpu')",
        "2.1",
        id="'16' at 2.1 keeps the Plugin name (2.1.0 has only that one)",
    ),
    pytest.param(
        "NativeMixedPrecisionPlugin",
        'NativeMixedPrecisionPlugin("16-mixed", "cuda")',
        "MixedPrecision",
        'MixedPrecision("16-mixed", "cuda")',
        "2.6",
        id="an accepted value is left alone",
    ),
    pytest.param(
        "DeepSpeedPrecisionPlugin",
        'DeepSpeedPrecisionPlugin(16, "native")',
        "DeepSpeedPrecision",
        'DeepSpeedPrecision("16-mixed")',
        "2.6",
        id="DeepSpeed 1.6-1.9: amp_type='native' goes, 16 is '16-mixed'",
    ),
    pytest.param(
        "DeepSpeedPrecisionPlugin",
        "DeepSpeedPrecisionPlugin(precision=32, amp_type='native', amp_level=None)",
        "DeepSpeedPrecisionPlugin",
        "DeepSpeedPrecisionPlugin(precision='32-true')",
        "2.0",
        id="DeepSpeed 32 is '32-true'",
    ),
    pytest.param(
        "FSDPMixedPrecisionPlugin",
        'FSDPMixedPrecisionPlugin("bf16-mixed", "cuda", scaler)',
        "FSDPPrecision",
        'FSDPPrecision("bf16-mixed", scaler)',
        "2.6",
        id="FSDPMixedPrecisionPlugin loses device: FSDPPrecision(precision, scaler)",
    ),
    pytest.param(
        "FSDPMixedPrecisionPlugin",
        'FSDPMixedPrecisionPlugin(\n    precision="16-mixed",\n    device="cuda",\n)',
        "FSDPPrecisionPlugin",
        'FSDPPrecisionPlugin(\n    precision="16-mixed",\n)',
        "2.1",
        id="the last argument dropped: the trailing comma stays",
    ),
    pytest.param(
        "TPUBf16PrecisionPlugin",
        "TPUBf16PrecisionPlugin()",
        "XLAPrecision",
        'XLAPrecision(precision="bf16-true")',
        "2.6",
        id="TPUBf16PrecisionPlugin() is XLAPrecision('bf16-true')",
    ),
    pytest.param(
        "TPUPrecisionPlugin",
        "TPUPrecisionPlugin()",
        "XLAPrecisionPlugin",
        "XLAPrecisionPlugin()",
        "2.1",
        id="TPUPrecisionPlugin() is XLAPrecisionPlugin() at 2.1 (32-true is its default)",
    ),
    pytest.param(
        "DoublePrecisionPlugin",
        "DoublePrecisionPlugin()",
        "DoublePrecision",
        "DoublePrecision()",
        "2.2",
        id="DoublePrecisionPlugin is DoublePrecision from 2.2",
    ),
    pytest.param(
        "PrecisionPlugin",
        "PrecisionPlugin()",
        "Precision",
        "Precision()",
        "2.6",
        id="PrecisionPlugin is Precision from 2.2",
    ),
]


@pytest.mark.parametrize(
    ("cls", "before", "after_cls", "after", "target"),
    TRANSFORMED,
)
def test_rewrites(cls: str, before: str, after_cls: str, after: str, target: str) -> None:
    check_transformed(_code(cls, before), _code(after_cls, after), target=target)


TODO = [
    pytest.param(
        _code("NativeMixedPrecisionPlugin", 'NativeMixedPrecisionPlugin(p, "cuda")'),
        "2.6",
        '(p, "cuda")',
        id="a non-literal precision stays, with the accepted values",
    ),
    pytest.param(
        _code("NativeMixedPrecisionPlugin", 'NativeMixedPrecisionPlugin(32, "cuda")'),
        "2.0",
        '(32, "cuda")',
        id="32 has no AMP spelling",
    ),
    pytest.param(
        _code("NativeMixedPrecisionPlugin", "NativeMixedPrecisionPlugin(**kw)"),
        "2.6",
        "(**kw)",
        id="precision from **kwargs",
    ),
    pytest.param(
        _code("DeepSpeedPrecisionPlugin", 'DeepSpeedPrecisionPlugin(16, "apex", "O2")'),
        "2.0",
        '("16-mixed", "apex", "O2")',
        id="DeepSpeed with apex: the value is rewritten, amp_type/amp_level get the TODO",
    ),
]


@pytest.mark.parametrize(
    ("source", "target", "arguments"),
    TODO,
)
def test_todo(source: str, target: str, arguments: str) -> None:
    """The class is renamed (that part is exact), its arguments stay, one TODO above names what 2.x accepts."""
    outcome = run(source, target)
    todos = [f for f in outcome.findings if f.kind == "todo"]
    assert [f.rule for f in todos] == [RULE] and f"[{RULE}]" in outcome.source
    assert outcome.source.endswith(arguments + "\n")
    assert run(outcome.source, target).source == outcome.source


@pytest.mark.parametrize("target", ["1.6", "1.9"])
def test_1x_targets_keep_1x_values(target: str) -> None:
    # Only this rule: the 1.9 spelling at target 1.6 names a class 1.6.5 lacks, which rule removed_names flags.
    source = _code("NativeMixedPrecisionPlugin", 'NativeMixedPrecisionPlugin(16, "cuda")').replace("Native", "")
    outcome = run(source, target, rules=frozenset({RULE}))
    assert outcome.error is None and not outcome.changed and outcome.source == source


@pytest.mark.parametrize("target", TARGETS_2X)
def test_every_2x_target_applies_the_2_0_rewrite_and_later_ones(target: str) -> None:
    new = "MixedPrecision" if version_tuple(target) >= (2, 2) else "MixedPrecisionPlugin"
    check_transformed(
        _code("NativeMixedPrecisionPlugin", 'NativeMixedPrecisionPlugin(16, "cuda")'),
        _code(new, f'{new}("16-mixed", "cuda")'),
        target=target,
    )


def test_compat_code_keeps_1x_values() -> None:
    # newcore's MixedPrecisionPlugin takes 16 and "bf16" as 1.6 did.
    check_transformed(
        "from compat.plugins import NativeMixedPrecisionPlugin\np = NativeMixedPrecisionPlugin(16, 'cuda')\n",
        "from newcore.plugins import MixedPrecisionPlugin\np = MixedPrecisionPlugin(16, 'cuda')\n",
        target="2.6",
    )


def test_some_fixture_or_row_shows_the_rule() -> None:
    assert exercised(RULE)

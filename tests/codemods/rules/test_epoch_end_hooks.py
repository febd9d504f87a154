"""Rule ``epoch_end_hooks``: ``*_epoch_end`` -> ``on_*_epoch_end`` with the step outputs kept by the module, where
that reproduces 1.x exactly; anything else keeps ``removed_hooks``' TODO, which says why.

That the rewritten module sees what 1.x passed is checked by running both sides: ``tests/data/programs``
(``tests/codemods/runs``, the ``lightning`` tier). The batch-end hooks written are those 2.6.6 declares.
"""

from __future__ import annotations

import textwrap

import pytest

from codemods.rules._epoch_end_plan import EPOCH_ENDS
from legacy_api.hooks import members
from legacy_api.surface import arguments, surface
from tests.codemods.helpers import check_transformed, exercised, run

RULE = "epoch_end_hooks"

HEAD = "import pytorch_lightning as pl\n\n\nclass M(pl.LightningModule):\n"
INIT = "    def __init__(self):\n        super().__init__()\n        self.w = 1\n\n"

REWRITES = [
    pytest.param(
        HEAD + INIT + "    def validation_epoch_end(self, outputs):\n        self.log('x', 1)\n",
        HEAD + INIT + "    def on_validation_epoch_end(self):\n        self.log('x', 1)\n",
        id="outputs never read: renamed, the parameter dropped, nothing collected",
    ),
    pytest.param(
        HEAD + INIT + "    def test_epoch_end(\n        self,\n        outputs: list,\n    ) -> None:\n        pass\n",
        HEAD + INIT + "    def on_test_epoch_end(\n        self,\n    ) -> None:\n        pass\n",
        id="one parameter a line, with a trailing comma: the layout stays",
    ),
    pytest.param(
        HEAD + INIT + "    def test_epoch_end(self, outputs: list) -> None:\n        pass\n",
        HEAD + INIT + "    def on_test_epoch_end(self) -> None:\n        pass\n",
        id="annotations: the parameter's goes with it, the return's stays",
    ),
    pytest.param(
        HEAD
        + INIT
        + "    def validation_step(self, batch, batch_idx):\n        return batch\n\n"
        + "    def validation_epoch_end(self, outs):\n        '''Doc.'''\n        self.log('n', len(outs))\n",
        HEAD
        + "    def __init__(self):\n        super().__init__()\n        self.validation_step_outputs = []\n"
        + "        self.w = 1\n\n"
        + "    def validation_step(self, batch, batch_idx):\n        return batch\n\n"
        + "    def on_validation_batch_end(self, outputs, batch, batch_idx, dataloader_idx=0):\n"
        + "        if outputs is not None:\n            self.validation_step_outputs.append(outputs)\n\n"
        + "    def on_validation_epoch_end(self):\n        '''Doc.'''\n"
        + "        outs = self.validation_step_outputs\n        self.validation_step_outputs = []\n"
        + "        self.log('n', len(outs))\n",
        id="outputs read: a list made in __init__, filled below the step, taken and renewed after the docstring",
    ),
    pytest.param(
        "import torch\n" + HEAD + INIT + "    def training_epoch_end(self, outputs):\n        print(outputs)\n",
        "import torch\nimport pytorch_lightning as pl\n"
        "from lightning_utilities.core.apply_func import apply_to_collection\n\n\nclass M(pl.LightningModule):\n"
        + "    def __init__(self):\n        super().__init__()\n        self.training_step_outputs = []\n"
        + "        self.w = 1\n\n"
        + "    def on_train_epoch_end(self):\n"
        + "        outputs = self.training_step_outputs\n        self.training_step_outputs = []\n"
        + "        print(outputs)\n\n"
        + "    def on_train_batch_end(self, outputs, batch, batch_idx):\n        if outputs:\n"
        + "            self.training_step_outputs.append(apply_to_collection(outputs, torch.Tensor, "
        + "torch.Tensor.detach))\n",
        id="training, step inherited: the collector below the hook detaches like 1.5 and skips skipped steps",
    ),
    pytest.param(
        HEAD
        + INIT
        + "    def validation_epoch_end(self, outputs):\n        # log them\n"
        + "        super().validation_epoch_end(outputs)\n        self.log('x', 1)\n",
        HEAD + INIT + "    def on_validation_epoch_end(self):\n        # log them\n        self.log('x', 1)\n",
        id="super()'s hook, LightningModule's own, was empty in 1.x: the call goes, its comment stays",
    ),
    pytest.param(
        HEAD
        + INIT
        + "    def training_epoch_end(self, outputs):\n        self.log('x', 1)\n"
        + "        return super().training_epoch_end(outputs)\n",
        HEAD + INIT + "    def on_train_epoch_end(self):\n        self.log('x', 1)\n",
        id="the return of super()'s empty hook, last: it returned None",
    ),
    pytest.param(
        HEAD + INIT + "    def test_epoch_end(self, outputs):\n        super().test_epoch_end(outputs)\n",
        HEAD + INIT + "    def on_test_epoch_end(self):\n        pass\n",
        id="nothing but super()'s empty hook: pass",
    ),
]

# Each keeps removed_hooks' TODO, whose message ends with the reason.
BLOCKED = [
    pytest.param(
        "    def validation_step(self, batch, batch_idx, dataloader_idx):\n        return 1\n\n"
        "    def validation_epoch_end(self, outputs):\n        print(outputs)\n",
        "several dataloaders",
        id="a step taking dataloader_idx: 1.x passed a list per dataloader",
    ),
    pytest.param(
        "    def training_step(self, batch, batch_idx, optimizer_idx):\n        return 1\n\n"
        "    def training_epoch_end(self, outputs):\n        print(outputs)\n",
        "several optimizers",
        id="several optimizers: 1.x passed a list per optimizer",
    ),
    pytest.param(
        "    def test_step_end(self, out):\n        return out\n\n"
        "    def test_epoch_end(self, outputs):\n        print(outputs)\n",
        "test_step_end",
        id="a *_step_end: 1.x collected its outputs",
    ),
    pytest.param(
        "    def on_validation_epoch_end(self):\n        pass\n\n"
        "    def validation_epoch_end(self, outputs):\n        pass\n",
        "merge the two by hand",
        id="the class already defines the successor",
    ),
    pytest.param(
        "    def test_epoch_end(self, outputs):\n        return self.validation_epoch_end(outputs)\n\n"
        "    def validation_epoch_end(self, outputs):\n        print(outputs)\n",
        "calls validation_epoch_end by name",
        id="a hook the module calls by name is not renamed under the call",
    ),
    pytest.param(
        "    def validation_epoch_end(self, outputs):\n        super().validation_epoch_end(outputs[1:])\n",
        "calls validation_epoch_end by name",
        id="super()'s empty hook with an argument that computes something",
    ),
    pytest.param(
        "    def validation_epoch_end(self, outputs):\n        if outputs:\n"
        "            super().validation_epoch_end(outputs)\n",
        "calls validation_epoch_end by name",
        id="super()'s empty hook inside a block",
    ),
    pytest.param(
        "    def validation_epoch_end(self, outputs):\n        print(outputs, self.validation_step_outputs)\n",
        "already has a validation_step_outputs",
        id="the list's name is taken",
    ),
    pytest.param(
        "    def validation_epoch_end(self, *outputs):\n        print(outputs)\n",
        "signature",
        id="another signature",
    ),
]


@pytest.mark.parametrize(("before", "after"), REWRITES)
def test_rewrite(before: str, after: str) -> None:
    outcome = check_transformed(before, after, target="2.6")
    assert not [f for f in outcome.findings if f.kind == "todo"]
    assert [f.kind for f in outcome.findings if f.rule == RULE] == ["fix"]


@pytest.mark.parametrize(("body", "reason"), BLOCKED)
def test_blocked(body: str, reason: str) -> None:
    """The last hook of each body is the one left: removed_hooks' TODO on it ends with the reason."""
    hook = body.rsplit("def ", 1)[1].split("(")[0]
    outcome = run(HEAD + INIT + body, "2.6")
    assert not [f for f in outcome.findings if f.rule == RULE and f.message.startswith(hook)]
    todos = [f.message for f in outcome.findings if f.rule == "removed_hooks" and f"{hook} (removed" in f.message]
    assert len(todos) == 1 and reason in todos[0].rsplit("not rewritten: ", 1)[1], todos


def test_super_of_a_class_with_another_base_may_be_that_base_s_hook() -> None:
    source = (
        "import pytorch_lightning as pl\n\n\nclass M(Mixin, pl.LightningModule):\n"
        + INIT
        + "    def validation_epoch_end(self, outputs):\n        super().validation_epoch_end(outputs)\n"
    )
    outcome = run(source, "2.6")
    assert "super().validation_epoch_end(outputs)" in outcome.source
    assert not [f for f in outcome.findings if f.rule == RULE]


def test_without_an_init_calling_super_the_hook_keeps_its_todo() -> None:
    source = HEAD + "    def validation_epoch_end(self, outputs):\n        print(outputs)\n"
    todos = [f.message for f in run(source, "2.6").findings if f.rule == "removed_hooks"]
    assert todos and "no __init__" in todos[0]


@pytest.mark.parametrize("target", ["1.6", "1.9"])
def test_nothing_before_2_0(target: str) -> None:
    source = HEAD + INIT + "    def validation_epoch_end(self, outputs):\n        print(outputs)\n"
    assert run(source, target).source == source


def test_a_class_that_is_no_lightning_module_is_left_alone() -> None:
    source = textwrap.dedent(
        """\
        class M:
            def validation_epoch_end(self, outputs):
                print(outputs)
        """
    )
    assert run(source, "2.6").source == source


@pytest.mark.parametrize("hook", sorted(EPOCH_ENDS))
def test_the_table_matches_the_recorded_releases(hook: str) -> None:
    """1.5.10 had the hook, 2.6.6 has neither it nor lacks the successor, and the batch-end hook written has the
    parameters 2.6.6 declares."""
    row = EPOCH_ENDS[hook]
    assert hook in members("1.5.10", "LightningModule")
    assert hook not in members("2.6.6", "LightningModule")
    assert {row.successor, row.batch_end} <= members("2.6.6", "LightningModule")
    signature = surface("2.6.6").signature(f"pytorch_lightning.LightningModule.{row.batch_end}")
    parsed = arguments(signature)
    declared = [arg.arg for arg in parsed.args] if parsed else None
    assert declared == ["self", *(p.split("=")[0] for p in row.batch_end_parameters.split(", "))]


def test_some_fixture_or_row_shows_the_rule() -> None:
    assert exercised(RULE)

"""A training script written the 1.5 way trains on the real Lightning 2.x, unchanged, through ``compat.lightning``.

``examples/legacy_on_2x/train.py`` asks for CPU DDP with ``accelerator="ddp_cpu", num_processes=2``, passes its own
``DDPPlugin`` subclass in ``plugins=``, reads ``trainer.gpus``/``trainer.training_type_plugin``/``_distrib_type``
in its LightningModule and a Callback and builds the Trainer with ``Trainer.from_argparse_args``. Here it runs with
``python -m compat.lightning`` in the tier's venv, two real processes (Lightning's script launcher re-runs it for
rank 1), and must train as it did on real Lightning 1.5.10: :data:`ON_1_5_10` is what each rank wrote there, with
the command in its comment. The audit lists each old API once, counted once per line that uses it (rank zero,
however many steps run).
"""

from __future__ import annotations

import ast
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.compat.lightning.conftest import require_lightning

pytestmark = pytest.mark.lightning

ROOT = Path(__file__).resolve().parents[3]
SCRIPT = ROOT / "examples" / "legacy_on_2x" / "train.py"
REFERENCE_15 = ROOT / "tools" / "reference" / ".venvs" / "1.5.10" / "bin" / "python"

#: What each rank wrote on real pytorch-lightning 1.5.10 (torch 2.13.0+cpu, the reference venv of tools/reference):
#: ``tools/reference/.venvs/1.5.10/bin/python examples/legacy_on_2x/train.py --out OUT --max_epochs 2``
#: (:func:`test_the_expectation_is_what_1_5_10_does` re-checks it where that venv exists).
ON_1_5_10: dict[str, Any] = {
    "batches": 8,
    "custom_plugin": True,
    "find_unused_parameters": False,
    "is_ddp_plugin": True,
    "loss_after": 0.9476282000541687,
    "loss_before": 5.320975303649902,
    "module_saw": {"ddp": True, "gpus": None, "plugin": "NoUnusedSearchDDP"},
    "spawn": False,
    "world_size": 2,
}

#: Each old API the script uses (the audit's ``old``) -> a regex for the code that uses it: the audit must list it
#: once, counted once per call site (rank zero only, however many steps run).
OLD_USES: list[tuple[str, str]] = [
    ("`pytorch_lightning.plugins.DDPPlugin`", r"from pytorch_lightning\.plugins import DDPPlugin"),
    ("`DistributedType.DDP`", r"DistributedType\.DDP\b"),
    ("`DistributedType.DDP_SPAWN`", r"DistributedType\.DDP_SPAWN\b"),
    ("`DistributedType.DDP_CPU`", r"DistributedType\.DDP_CPU\b"),
    ("`trainer.gpus`", r"trainer\.gpus\b"),
    ("`trainer.training_type_plugin`", r"trainer\.training_type_plugin\b"),
    ("`trainer._distrib_type`", r"trainer\._distrib_type\b"),
    ("`Trainer.add_argparse_args`", r"Trainer\.add_argparse_args\("),
    ("`Trainer.from_argparse_args`", r"Trainer\.from_argparse_args\("),
    ("`Trainer(accelerator='ddp_cpu')`", r'accelerator="ddp_cpu"'),
    ("`Trainer(num_processes=2)`", r"num_processes=2"),
    ("`Trainer(plugins=[NoUnusedSearchDDP(...)])`", r"plugins=\[NoUnusedSearchDDP\(\)\]"),
]


def _code() -> str:
    """The script's code: its source after the module docstring (which names the old APIs too)."""
    source = SCRIPT.read_text(encoding="utf-8")
    docstring = ast.parse(source).body[0]
    return "\n".join(source.splitlines()[docstring.end_lineno or 0 :])


def _environment() -> dict[str, str]:
    """This environment without scheduler variables (a CI runner's would make Lightning join its job)."""
    drop = ("SLURM_", "TORCHELASTIC_", "KUBERNETES_", "LSB_", "JSM_", "OMPI_", "PMI_", "COMPAT_LIGHTNING_")
    keep = {k: v for k, v in os.environ.items() if not k.startswith(drop)}
    for name in ("RANK", "LOCAL_RANK", "GROUP_RANK", "NODE_RANK", "WORLD_SIZE", "MASTER_ADDR", "MASTER_PORT"):
        keep.pop(name, None)
    return keep


#: The one failure retried: rank 0's store port, picked free by Lightning, taken by another job before it bound it.
PORT_RACE = re.compile(r"EADDRINUSE|[Aa]ddress already in use")


def _run(python: str | Path, out: Path, audit: Path | None = None) -> subprocess.CompletedProcess[str]:
    """The script with ``python`` (through ``python -m compat.lightning --audit-json AUDIT`` when ``audit`` is given)."""
    shim = ["-m", "compat.lightning", "--audit-json", str(audit)] if audit else []
    command = [str(python), *shim, str(SCRIPT), "--out", str(out), "--max_epochs", "2"]
    for _ in range(2):
        shutil.rmtree(out, ignore_errors=True)
        if audit:
            audit.unlink(missing_ok=True)  # the shim merges into an existing report
        done = subprocess.run(command, cwd=ROOT, env=_environment(), capture_output=True, text=True, timeout=300)
        if done.returncode == 0 or not PORT_RACE.search(done.stderr):
            break
    return done


def _markers(out: Path) -> list[dict[str, Any]]:
    return [json.loads((out / f"rank{rank}.json").read_text(encoding="utf-8")) for rank in (0, 1)]


def _as_on_1_5_10(marker: dict[str, Any], rank: int) -> None:
    losses = {key: marker[key] for key in ("loss_before", "loss_after")}
    assert marker == {**ON_1_5_10, "rank": rank, **losses}, marker
    # Same seed, data, sampler and torch: the same numbers, up to the reduction order of gloo's all-reduce.
    assert losses["loss_before"] == pytest.approx(ON_1_5_10["loss_before"], rel=1e-6)
    assert losses["loss_after"] == pytest.approx(ON_1_5_10["loss_after"], rel=1e-5)
    assert losses["loss_after"] < losses["loss_before"] / 4


@pytest.fixture(scope="module")
def legacy_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    """The script, run once with ``python -m compat.lightning --audit-json``: (its output folder, the audit)."""
    require_lightning()  # a module fixture runs before the conftest's autouse skip
    tmp = tmp_path_factory.mktemp("legacy")
    out, audit = tmp / "run", tmp / "audit.json"
    done = _run(sys.executable, out, audit)
    assert done.returncode == 0, f"exit {done.returncode}\n{done.stdout[-2000:]}\n{done.stderr[-6000:]}"
    return out, json.loads(audit.read_text(encoding="utf-8"))


def test_it_trains_to_completion_on_both_ranks_as_on_1_5_10(legacy_run: tuple[Path, dict[str, Any]]) -> None:
    out, _ = legacy_run
    for rank, marker in enumerate(_markers(out)):
        _as_on_1_5_10(marker, rank)


@pytest.mark.parametrize(("old", "code"), OLD_USES, ids=[old for old, _ in OLD_USES])
def test_the_audit_lists_each_old_use_once(legacy_run: tuple[Path, dict[str, Any]], old: str, code: str) -> None:
    _, audit = legacy_run
    entries = [entry for entry in audit["entries"] if entry["old"] == old]
    assert len(entries) == 1, f"{old}: not once in {[e['old'] for e in audit['entries']]}"
    sites = len(re.findall(code, _code()))
    assert sites >= 1
    assert entries[0]["count"] == sites, entries[0]
    assert entries[0]["first_location"].startswith("examples/legacy_on_2x/train.py:"), entries[0]


def test_the_audit_lists_nothing_else(legacy_run: tuple[Path, dict[str, Any]]) -> None:
    _, audit = legacy_run
    unexpected = [entry["old"] for entry in audit["entries"] if entry["old"] not in dict(OLD_USES)]
    assert not unexpected


def test_without_the_shim_2x_stops_at_the_first_import(tmp_path: Path) -> None:
    done = _run(sys.executable, tmp_path / "run")
    assert done.returncode != 0
    assert "cannot import name 'DDPPlugin'" in done.stderr


@pytest.mark.skipif(
    not REFERENCE_15.exists(), reason="no pytorch-lightning 1.5.10 venv (tools/reference/make_venvs.py)"
)
def test_the_expectation_is_what_1_5_10_does(tmp_path: Path) -> None:
    done = _run(REFERENCE_15, tmp_path / "run")
    assert done.returncode == 0, f"exit {done.returncode}\n{done.stderr[-1500:]}"
    for rank, marker in enumerate(_markers(tmp_path / "run")):
        _as_on_1_5_10(marker, rank)

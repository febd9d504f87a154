"""install() / uninstall(): idempotent, exact, lazy; the shim reaches child processes."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import compat.lightning as shim_module
from compat.lightning._patch import ABSENT

ROOT = Path(__file__).resolve().parents[3]


def _state(records: list[Any]) -> dict[str, Any]:
    """What each patched place holds now, by identity; plus sys.modules, sys.meta_path and the environment."""
    places = {}
    for record in records:
        if record.kind == "attr":
            places[f"{id(record.target)}.{record.name}"] = record.target.__dict__.get(record.name, ABSENT)
    return {
        "places": places,
        "modules": dict(sys.modules),
        "meta_path": list(sys.meta_path),
        "environ": dict(os.environ),
    }


def _same(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    diffs = [key for key, value in before["places"].items() if after["places"].get(key, ABSENT) is not value]
    added = set(after["modules"]) - set(before["modules"])
    diffs += [f"sys.modules[{name!r}]" for name in added if name.startswith(("pytorch_lightning.plugins.training",))]
    diffs += [f"sys.modules[{n!r}]" for n in before["modules"] if after["modules"].get(n) is not before["modules"][n]]
    if after["meta_path"] != before["meta_path"]:
        diffs.append("sys.meta_path")
    if after["environ"] != before["environ"]:
        diffs.append("os.environ")
    return diffs


def test_importing_the_package_imports_no_lightning() -> None:
    roots = ("pytorch_lightning", "lightning", "lightning_fabric", "lightning_utilities")
    code = f"import sys, compat.lightning; print(sorted(m for m in sys.modules if m.split('.')[0] in {roots}))"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_install_twice_is_install_once() -> None:
    shim_module.install()
    try:
        log = shim_module._log
        count = len(log.records)
        shim_module.install()
        assert shim_module._log is log and len(log.records) == count
    finally:
        shim_module.uninstall()
    assert not shim_module.installed()


def test_uninstall_restores_every_patched_attribute_exactly() -> None:
    import pytorch_lightning

    shim_module.install()
    records = list(shim_module._log.records)
    shim_module.uninstall()
    before = _state(records)
    shim_module.install()
    import pytorch_lightning.accelerators.gpu
    from pytorch_lightning.plugins.training_type import ddp  # noqa: F401

    assert shim_module._log.records, "install() recorded nothing"
    shim_module.uninstall()
    assert _same(before, _state(records)) == []
    assert "pytorch_lightning.plugins.training_type" not in sys.modules
    import pytorch_lightning as pl

    assert not hasattr(pl.plugins, "DDPPlugin") and not hasattr(pl.Trainer, "gpus")
    assert pl.plugins.__dict__.get("PrecisionPlugin") is not None  # Lightning's own graveyard stub is back


def test_a_child_process_starts_with_the_shim(shim: Any) -> None:
    code = "import compat.lightning as c, pytorch_lightning.plugins as p; print(c.installed(), p.DDPPlugin.__name__)"
    out = subprocess.run([sys.executable, "-c", code], cwd="/", capture_output=True, text=True, env=dict(os.environ))
    assert out.stdout.split() == ["True", "DDPStrategy"], out.stderr


def test_python_m_compat_lightning_runs_a_script_with_its_argv(tmp_path: Path) -> None:
    script = tmp_path / "old.py"
    script.write_text(
        textwrap.dedent(
            """
            import sys
            from pytorch_lightning.plugins import DDPPlugin
            print(sys.argv, DDPPlugin.__name__)
            """
        )
    )
    audit = tmp_path / "audit.json"
    cmd = [sys.executable, "-m", "compat.lightning", "--audit-json", str(audit), str(script), "--x", "1"]
    out = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.split("\n")[0] == f"[{str(script)!r}, '--x', '1'] DDPStrategy"
    assert '"`pytorch_lightning.plugins.DDPPlugin`"' in audit.read_text()

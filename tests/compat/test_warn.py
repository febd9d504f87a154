"""The one warning helper: category shown by default, the user's line, rank zero only, and a cheap import."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest

from compat._warn import CompatDeprecationWarning, Notice, add_listener, remove_listener, warn

ROOT = Path(__file__).resolve().parents[2]
OPTIONAL_BACKENDS = ("torch_xla", "horovod", "deepspeed", "fairscale", "apex", "poptorch")


def run_script(tmp_path: Path, source: str, **env: str) -> subprocess.CompletedProcess[str]:
    script = tmp_path / "legacy_script.py"
    script.write_text(textwrap.dedent(source), encoding="utf-8")
    clean = {k: v for k, v in os.environ.items() if k not in ("PYTHONWARNINGS", "RANK", "LOCAL_RANK", "SLURM_PROCID")}
    clean["PYTHONPATH"] = str(ROOT)
    return subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, env={**clean, **env}, cwd=tmp_path
    )


def test_shown_by_default_at_the_users_line(tmp_path: Path) -> None:
    result = run_script(tmp_path, "import compat.plugins\nplugin = compat.plugins.DDPPlugin\n")
    assert result.returncode == 0, result.stderr
    assert "legacy_script.py:2: CompatDeprecationWarning: `compat.plugins.DDPPlugin` is deprecated" in result.stderr


@pytest.mark.parametrize("variable", ["RANK", "LOCAL_RANK", "SLURM_PROCID"])
def test_silent_on_other_ranks(tmp_path: Path, variable: str) -> None:
    result = run_script(tmp_path, "import compat.plugins\nplugin = compat.plugins.DDPPlugin\n", **{variable: "1"})
    assert result.returncode == 0 and result.stderr == ""


def test_message_reads_what_since_when_and_instead() -> None:
    notice = Notice("`old()`", "`new()`", "1.6", "1.0.0", "Extra advice.")
    assert notice.message == (
        "`old()` is deprecated as of Lightning 1.6 and will be removed in lightning-migrate 1.0.0."
        " Use `new()` instead. Extra advice."
    )


def test_listeners_see_warnings_even_when_filtered() -> None:
    seen: list[tuple[str, int]] = []

    def listener(warning: CompatDeprecationWarning, filename: str, lineno: int) -> None:
        seen.append((warning.notice.old, lineno))

    add_listener(listener)
    try:
        with pytest.warns(CompatDeprecationWarning):
            warn(Notice("`x`", "`y`", "1.6", "1.0.0"))
    finally:
        remove_listener(listener)
    assert seen == [("`x`", test_listeners_see_warnings_even_when_filtered.__code__.co_firstlineno + 9)]


def test_import_is_cheap_and_never_imports_optional_backends_or_libcst() -> None:
    code = textwrap.dedent(
        f"""
        import sys, time
        t0 = time.perf_counter()
        import newcore, newcore.strategies, newcore.plugins, newcore.accelerators
        t1 = time.perf_counter()
        before = set(sys.modules)
        import compat, compat.plugins, compat.accelerators, compat.utilities.enums
        t2 = time.perf_counter()
        added = sorted(m for m in set(sys.modules) - before if not m.startswith("compat"))
        bad = [m for m in sys.modules if m.split(".")[0] in {(*OPTIONAL_BACKENDS, "libcst")!r}]
        print(json.dumps({{"added": added, "bad": bad, "newcore": t1 - t0, "compat": t2 - t1}}))
        """
    )
    result = subprocess.run([sys.executable, "-c", "import json" + code], capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert set(report["added"]) <= {
        "legacy_api",
        "legacy_api.renames",
        "legacy_api._rename",
        "legacy_api._rename_rows",
        "legacy_api._rename_rows_2x",
        "legacy_api._rename_rows_moved",
        "legacy_api._enum_members",
        "legacy_api._trainer_properties",
        "legacy_api._strategy_names",
        "legacy_api.lightning15",
        "legacy_api.rule_effects",
        "deprecation",
        "packaging",
        "packaging.version",
    }
    assert report["bad"] == []
    # Generous bound (measured: ~15 ms on top of ~950 ms): compat must stay a thin layer over newcore.
    assert report["compat"] < 0.25 * report["newcore"]


# --- a Trainer built from a config: the user's line, and the config key -----------------------------------------------
def _module(name: str, source: str, **names: object) -> dict[str, object]:
    """Functions compiled as if they lived in module ``name`` (their frames carry its ``__name__``)."""
    namespace: dict[str, object] = {"__name__": name, **names}
    exec(compile(textwrap.dedent(source), f"<{name}>", "exec"), namespace)
    return namespace


_TRAINER = _module(
    "pytorch_lightning.trainer.trainer",
    """
    def Trainer(**kwargs):
        warn(Notice("`Trainer(gpus=2)`", "`accelerator='gpu', devices=2`", "1.7", "2.0.0", rule="device_flags"))
    """,
    warn=warn,
    Notice=Notice,
)
#: Hydra's instantiate: ``_call_target(_target_, _partial_, args, kwargs, full_key)`` (hydra-core 1.2+).
_HYDRA = _module(
    "hydra._internal.instantiate._instantiate2",
    """
    def _call_target(_target_, _partial_, args, kwargs, full_key):
        return _target_(*args, **kwargs)

    def instantiate():
        return _call_target(Trainer, False, (), {"gpus": 2}, "trainer")
    """,
    Trainer=_TRAINER["Trainer"],
)
_CLI = _module(
    "lightning.pytorch.cli",
    """
    class LightningCLI:
        subcommand = "fit"

        def __init__(self):
            self.trainer = self.instantiate_trainer()

        def instantiate_trainer(self):
            return Trainer(gpus=2)
    """,
    Trainer=_TRAINER["Trainer"],
)
BUILDERS = [
    pytest.param(_HYDRA["instantiate"], "trainer", id="hydra.utils.instantiate(cfg.trainer)"),
    pytest.param(_CLI["LightningCLI"], "fit.trainer", id="LightningCLI() running fit"),
]


@pytest.mark.parametrize(("build", "key"), BUILDERS)
def test_a_trainer_built_from_a_config_warns_at_the_users_call_naming_the_key(
    build: Callable[[], object], key: str
) -> None:
    with pytest.warns(CompatDeprecationWarning) as caught:
        build()
    (warning,) = caught.list
    assert (warning.filename, warning.lineno) == (__file__, sys._getframe().f_lineno - 2)
    assert f"Set in the config at `{key}`." in str(warning.message)

"""Every row of Lightning's upgrade guide (``legacy_api.upgrade_guide.ROWS``) against the shim on the real 2.x.

Each row's fixture is legacy code whose last line is the use. A row is in exactly one bucket:

* ``RUNS``: the fixture runs unchanged through the installed shim and warns (a ``CompatDeprecationWarning`` that
  names the replacement or says why there is none);
* ``REFUSED``: the use raises, naming the replacement: a ``RemovedFeatureError`` (those of
  :mod:`compat.lightning._removed` are also the AttributeError/ImportError plain 2.x raises there), or the
  translation's ``MisconfigurationException`` that names the ``migrate-trainer`` rule and what to write instead;
* ``LISTED``: with the reason. ``gap:`` rows are what the shim does not provide yet: the test checks they still
  raise that error, so a fix fails it until the row moves to ``RUNS`` or ``REFUSED``. Rows without code (the guide's
  behaviour changes, environment variables, package pins: outcome ``out-of-scope`` and no fixture) are listed by
  their own reason.

``test_the_counts`` prints the three counts (run ``-s`` to see them).
"""

from __future__ import annotations

import warnings
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from legacy_api.upgrade_guide import ROWS
from legacy_api.upgrade_guide_model import Row


def _ids(text: str) -> frozenset[str]:
    return frozenset(text.split())


#: Rows whose fixture runs unchanged through the shim and warns.
RUNS = _ids(
    "1.4-regular-06 1.5-advanced-04 1.5-regular-03 1.5-regular-04 1.5-regular-06 1.5-regular-07 "
    "1.6-advanced-01 1.6-advanced-02 1.6-advanced-08 1.6-advanced-11 1.6-devel-03 1.6-devel-06 "
    "1.5-regular-05 1.6-regular-01 1.6-regular-06 1.6-regular-02 1.6-regular-03 1.6-regular-04 1.6-regular-05 1.6-regular-07 "
    "1.6-regular-08 1.6-regular-09 1.6-regular-18 1.7-advanced-01 1.7-advanced-02 1.7-advanced-03 "
    "1.7-advanced-04 1.7-advanced-05 1.7-advanced-15 1.7-advanced-16 1.7-advanced-17 1.7-advanced-18 "
    "1.7-advanced-19 1.7-advanced-20 1.7-advanced-23 1.7-advanced-24 1.7-devel-03 1.7-devel-04 "
    "1.7-devel-05 1.7-devel-10 1.7-devel-12 1.7-devel-14 1.7-devel-15 1.7-devel-16 1.7-devel-17 "
    "1.7-devel-20 1.7-devel-23 1.7-regular-08 1.7-regular-09 1.8-advanced-01 1.8-advanced-03 "
    "1.8-advanced-04 1.8-advanced-05 1.8-devel-01 1.8-devel-02 1.8-devel-03 1.8-regular-03 "
    "1.9-advanced-01 1.9-advanced-06 1.9-advanced-07 1.9-advanced-08 1.9-advanced-09 1.9-advanced-14 "
    "1.9-advanced-15 1.9-advanced-16 1.9-advanced-17 1.9-advanced-18 1.9-advanced-21 1.9-advanced-22 "
    "1.9-advanced-23 1.9-advanced-24 1.9-advanced-25 1.9-advanced-47 1.9-advanced-48 1.9-advanced-49 "
    "1.9-advanced-50 1.9-advanced-51 1.9-advanced-60 1.9-regular-06 1.9-regular-07 1.9-regular-08 "
    "1.9-regular-12 1.9-regular-14 1.9-regular-15 1.9-devel-06 1.9-devel-07 1.9-devel-10 1.9-devel-14 "
    "1.9-devel-19 1.9-devel-66 1.9-devel-67 2.0-unlisted-09 2.0-unlisted-10 "
)
#: Rows refused at the use, the replacement named.
REFUSED = _ids(
    "1.5-advanced-14 1.6-devel-04 1.7-devel-25 1.7-devel-26 1.9-advanced-28 1.9-advanced-30 "
    "1.4-advanced-01 1.4-advanced-02 1.4-regular-02 1.4-regular-07 1.4-regular-09 1.5-advanced-05 "
    "1.5-advanced-06 1.5-advanced-07 1.5-advanced-08 1.5-advanced-09 1.5-advanced-10 1.5-advanced-11 "
    "1.5-advanced-12 1.5-advanced-13 1.5-advanced-15 1.5-devel-02 1.6-advanced-06 1.6-advanced-07 "
    "1.6-advanced-09 1.6-advanced-10 1.6-devel-02 1.6-regular-17 1.6-regular-19 1.6-regular-20 "
    "1.7-advanced-06 1.7-advanced-21 1.7-advanced-25 1.7-advanced-26 1.7-advanced-27 1.7-devel-01 "
    "1.7-devel-02 1.7-devel-06 1.7-devel-07 1.7-devel-08 1.7-devel-09 1.7-devel-11 1.7-devel-19 "
    "1.7-devel-21 1.7-devel-22 1.7-devel-24 1.7-devel-27 1.7-regular-01 1.7-regular-02 1.8-advanced-02 "
    "1.8-advanced-06 1.8-advanced-07 1.8-advanced-09 1.8-regular-02 1.9-advanced-02 1.9-advanced-12 "
    "1.9-advanced-19 1.9-advanced-20 1.9-advanced-35 1.9-advanced-52 1.9-advanced-54 1.9-advanced-56 "
    "1.9-regular-05 1.9-regular-09 1.9-regular-10 1.9-devel-01 1.9-devel-02 1.9-devel-03 1.9-devel-04 "
    "1.9-devel-05 1.9-devel-11 1.9-devel-12 1.9-devel-13 1.9-devel-15 1.9-devel-16 1.9-devel-17 "
    "1.9-devel-18 1.9-devel-23 1.9-devel-24 1.9-devel-25 1.9-devel-26 1.9-devel-27 1.9-devel-29 "
    "1.9-devel-30 1.9-devel-31 1.9-devel-32 1.9-devel-33 1.9-devel-35 1.9-devel-36 1.9-devel-38 "
    "1.9-devel-39 1.9-devel-40 1.9-devel-41 1.9-devel-42 1.9-devel-43 1.9-devel-44 1.9-devel-45 "
    "1.9-devel-46 1.9-devel-48 1.9-devel-51 1.9-devel-52 1.9-devel-53 1.9-devel-54 1.9-devel-55 "
    "1.9-devel-58 1.9-devel-59 1.9-devel-60 1.9-devel-61 1.9-devel-62 1.9-devel-63 1.9-devel-64 "
    "1.9-devel-65 "
)
#: Listed rows: (category, why) -> the row ids. A ``gap:`` category names the error the fixture still raises.
LISTED: dict[tuple[str, str], str] = {
    (
        "unexercised",
        "the use sits in a method the fixture never calls (a LightningModule hook body)",
    ): (
        "1.4-advanced-03 1.4-regular-03 1.4-regular-10 1.5-advanced-01 1.5-devel-04 1.6-advanced-04 "
        "1.6-regular-10 1.6-regular-11 1.7-devel-18 1.9-advanced-63 1.9-regular-11 1.9-devel-20 1.9-devel-56 "
        "2.0-advanced-06 2.0-regular-05 2.0-regular-06 2.0-regular-07 "
    ),
    (
        "gap: AttributeError",
        "a loop attribute 2.x made read-only (fit_loop.min_steps/max_steps setters), trainer.checkpoint_connector "
        "(private in 2.x): a plain AttributeError",
    ): ("1.5-devel-01 1.9-devel-08 1.9-devel-09 "),
    (
        "before 1.5",
        "gone in 1.5 already (a Trainer mixin's method, ModelCheckpoint(period=), Profiler(output_filename=)): code "
        "that ran on 1.5 cannot use it",
    ): ("1.4-advanced-04 1.4-advanced-05 1.4-advanced-06 1.4-regular-04 1.4-regular-05 "),
    (
        "hardware",
        "needs the GPUs/TPUs it names; the translation is checked by test_trainer_flags.py / test_parity.py",
    ): (
        "1.4-advanced-07 1.5-regular-08 1.9-regular-03 1.9-regular-04 2.0-devel-02 2.0-regular-03 "
        "2.0-unlisted-11 2.0-unlisted-12 "
    ),
    (
        "hook",
        "a 1.x hook: defining it does nothing; the Trainer's call is what counts. The shim calls it where 1.5.10 did, compared with 1.5.10 by tests/data/programs (U's _epoch_end, _optimizer_step, _epoch_hooks; _callback_hooks, _legacy_callbacks: legacy_callback_hooks.py; _datamodule's checkpoint hooks: test_datamodule.py)",
    ): (
        "1.4-regular-01 1.6-regular-16 1.7-advanced-07 1.7-advanced-08 1.7-advanced-09 1.7-advanced-10 "
        "1.7-advanced-11 1.7-advanced-12 1.7-advanced-13 1.7-advanced-14 1.7-advanced-28 1.7-devel-29 "
        "1.7-regular-04 1.7-regular-05 1.9-advanced-03 1.9-advanced-04 1.9-advanced-05 1.9-advanced-10 "
        "1.9-advanced-11 1.9-advanced-37 1.9-advanced-38 1.9-advanced-39 1.9-advanced-40 1.9-advanced-41 "
        "1.9-advanced-42 1.9-advanced-43 1.9-advanced-45 1.9-advanced-46 1.9-advanced-57 1.9-advanced-58 "
        "1.9-advanced-59 1.9-advanced-62 1.9-devel-22 2.0-advanced-02 2.0-unlisted-01 2.0-unlisted-02 "
        "2.0-unlisted-03 2.0-unlisted-04 2.0-unlisted-05 2.0-unlisted-06 2.0-unlisted-07 2.0-unlisted-08 "
        "2.0-unlisted-14 "
    ),
    (
        "never",
        "the guide names a Trainer flag that never existed (using_native_amp was a property)",
    ): ("1.9-advanced-13 "),
    (
        "unserved hook",
        "a 1.x hook 2.x never calls and the shim does not call either: it warns when a Trainer runs the class, naming "
        "its replacement (_unserved_hooks: test_unserved_hooks.py)",
    ): (
        "1.4-regular-08 1.6-advanced-03 1.6-advanced-05 1.6-devel-05 1.6-regular-12 1.6-regular-13 "
        "1.6-regular-14 1.6-regular-15 1.7-regular-06 1.7-regular-07 1.9-advanced-36 1.9-advanced-44 "
        "1.9-devel-21 1.9-devel-49 2.0-advanced-03 2.0-advanced-04 2.0-advanced-05 "
    ),
    (
        "fragment",
        "the fixture names objects it does not build (model, args, Model): test_keywords.py / test_legacy_script.py / test_trainer_arguments.py (tune) run these calls",
    ): (
        "1.9-regular-13 "
        "1.5-advanced-02 1.5-devel-03 1.5-regular-01 1.5-regular-02 1.8-regular-01 1.9-advanced-26 "
        "1.9-advanced-27 1.9-devel-34 1.9-devel-37 1.9-devel-57 "
    ),
    (
        "gap: ModuleNotFoundError",
        "tensorboard/torch_xla missing here, or a removed module under a 1.x module the shim builds",
    ): ("1.6-devel-01 1.7-advanced-22 1.9-devel-28 "),
    (
        "gap: AssertionError",
        "Loop.run(): 2.x's loops have run() with other preconditions",
    ): ("1.9-advanced-29 "),
    (
        "config",
        "a LightningCLI YAML file, not a Python fixture",
    ): ("2.0-unlisted-13 "),
}


def _listed() -> dict[str, tuple[str, str]]:
    return {row_id: reason for reason, ids in LISTED.items() for row_id in ids.split()}


def _no_code(row: Row) -> bool:
    return row.kind == "out-of-scope" and not row.fixture.strip()


def bucket(row: Row) -> str:
    """``runs``, ``refused`` or ``listed`` (see the module docstring)."""
    if row.id in RUNS:
        return "runs"
    if row.id in REFUSED:
        return "refused"
    if row.id in _listed() or _no_code(row):
        return "listed"
    raise KeyError(row.id)


def _run(row: Row, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[BaseException | None, list[Any]]:
    """Exec the fixture in an empty folder; (what it raised, the compat warnings it gave)."""
    from compat._warn import CompatDeprecationWarning

    monkeypatch.chdir(tmp_path)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            exec(compile(row.fixture, f"<{row.id}>", "exec"), {"__name__": f"fixture_{row.id}"})
            raised: BaseException | None = None
        except Exception as error:  # the outcome is what the row checks
            raised = error
    return raised, [w.message for w in caught if isinstance(w.message, CompatDeprecationWarning)]


def test_every_row_is_in_exactly_one_bucket() -> None:
    listed = _listed()
    assert not (RUNS & REFUSED) and not (RUNS & listed.keys()) and not (REFUSED & listed.keys())
    ids = {row.id for row in ROWS}
    assert (RUNS | REFUSED | listed.keys()) <= ids, "a bucket names a row the table no longer has"
    assert [row.id for row in ROWS if row.id not in RUNS | REFUSED | listed.keys() and not _no_code(row)] == []


def test_the_counts() -> None:
    counts = Counter(bucket(row) for row in ROWS)
    gaps = sum(1 for category, _ in _listed().values() if category.startswith(("gap", "unwarned")))
    print(f"\nupgrade-guide rows on the shim: {counts['runs']} run and warn, {counts['refused']} refused naming the")
    print(f"replacement, {counts['listed']} listed ({gaps} of them gaps); {len(ROWS)} rows in all")
    assert sum(counts.values()) == len(ROWS)


@pytest.mark.parametrize("row", [r for r in ROWS if r.id in RUNS], ids=lambda r: f"{r.id} {r.legacy} runs and warns")
def test_a_provided_row_runs_unchanged_and_warns(row: Row, shim: Any, tmp_path: Path, monkeypatch: Any) -> None:
    raised, notices = _run(row, tmp_path, monkeypatch)
    assert raised is None, f"{row.id}: {type(raised).__name__}: {raised}"
    assert notices, f"{row.id}: ran without a word"
    assert any(w.notice.replacement or w.notice.details for w in notices), [str(w) for w in notices]


@pytest.mark.parametrize(
    "row", [r for r in ROWS if r.id in REFUSED], ids=lambda r: f"{r.id} {r.legacy} is refused naming the replacement"
)
def test_a_refused_row_raises_naming_the_replacement(row: Row, shim: Any, tmp_path: Path, monkeypatch: Any) -> None:
    raised, _ = _run(row, tmp_path, monkeypatch)
    assert raised is not None, f"{row.id} ran"
    removed = isinstance(raised, shim.RemovedFeatureError)
    assert removed or "migrate-trainer rule" in str(raised), f"{type(raised).__name__}: {raised}"


_GAPS = [r for r in ROWS if _listed().get(r.id, ("",))[0].startswith("gap")]


@pytest.mark.parametrize("row", _GAPS, ids=lambda r: f"{r.id} {r.legacy} is still a gap ({_listed()[r.id][0]})")
def test_a_gap_row_still_fails_as_listed(row: Row, shim: Any, tmp_path: Path, monkeypatch: Any) -> None:
    raised, _ = _run(row, tmp_path, monkeypatch)
    expected = _listed()[row.id][0].removeprefix("gap: ")
    assert raised is not None and type(raised).__name__ == expected, (
        f"{row.id} no longer fails with {expected} ({raised!r}): move it to RUNS or REFUSED"
    )

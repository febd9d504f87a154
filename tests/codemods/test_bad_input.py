"""Odd files never hang a run and are never lost: pipes, sockets and links (issue 26, item 7).

Only regular files are read; a symbolic link to a file of the run is migrated once, through to its target, and
stays a link; any other link, pipe or socket is skipped unread, with an error naming it (exit 3, as for an
unreadable file). Each case runs the real command line in a subprocess with a timeout, so a hang fails the test
instead of hanging CI, in all three modes: ``--check``, ``--diff`` and writing.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes and unix sockets are POSIX")

LEGACY = "import pytorch_lightning as pl\ntrainer = pl.Trainer(gpus=2)\n"
MIGRATED = 'import pytorch_lightning as pl\ntrainer = pl.Trainer(accelerator="gpu", devices=2)\n'
MODES = {"check": ["--check"], "diff": ["--diff"], "write": []}
#: Far above a run over these few files (under a second); a hang on a pipe ends here as a failure.
TIMEOUT_S = 60


def _bind_socket(name: str) -> Callable[[Path], None]:
    def make(proj: Path) -> None:
        # A relative name, bound from inside the folder: a unix socket path is limited to about 100 bytes.
        here = os.getcwd()
        os.chdir(proj)
        try:
            sock = socket.socket(socket.AF_UNIX)
            sock.bind(name)
            sock.close()  # the socket file stays
        finally:
            os.chdir(here)

    return make


def _links(*pairs: tuple[str, str]) -> Callable[[Path], None]:
    def make(proj: Path) -> None:
        for name, target in pairs:
            (proj / name).parent.mkdir(parents=True, exist_ok=True)
            os.symlink(target, proj / name)

    return make


def _fifo(name: str) -> Callable[[Path], None]:
    def make(proj: Path) -> None:
        (proj / name).parent.mkdir(parents=True, exist_ok=True)
        os.mkfifo(proj / name)

    return make


def _legacy(name: str) -> Callable[[Path], None]:
    def make(proj: Path) -> None:
        (proj / name).parent.mkdir(parents=True, exist_ok=True)
        (proj / name).write_text(LEGACY)

    return make


@dataclass(frozen=True)
class Case:
    """A project folder ``proj`` (holding the legacy ``a.py``) beside ``outside/real.py``, plus odd entries."""

    make: tuple[Callable[[Path], None], ...]
    args: tuple[str, ...] = (".",)
    #: path -> words of the error it gets; no other path gets one.
    errors: dict[str, str] = field(default_factory=dict)
    #: Files migrated by a write (``a.py`` unless said otherwise), through whatever links lead to them.
    migrated: tuple[str, ...] = ("a.py",)


CASES = [
    pytest.param(Case((_fifo("pipe.py"),), ("pipe.py", "a.py"), {"pipe.py": "a named pipe"}), id="a named pipe given explicitly is skipped unread"),
    pytest.param(Case((_fifo("pipe.py"),), errors={"pipe.py": "a named pipe"}), id="a named pipe in the tree is skipped unread"),
    pytest.param(Case((_fifo("conf/trainer.yaml"),), errors={"conf/trainer.yaml": "a named pipe"}), id="a named pipe with a config's name is skipped unread"),
    pytest.param(Case((_bind_socket("sock.py"),), errors={"sock.py": "a socket"}), id="a socket in the tree is skipped unread"),
    pytest.param(Case((_fifo("pipe"), _links(("via.py", "pipe"))), errors={"via.py": "a symbolic link to a named pipe"}), id="a link to a named pipe is skipped unread"),
    pytest.param(Case((_links(("link.py", "a.py")),)), id="a link to a file inside is migrated once and stays a link"),
    pytest.param(Case((_legacy("pkg/z.py"), _links(("0_link.py", "pkg/z.py"))), migrated=("a.py", "pkg/z.py")), id="a link sorting before its target is migrated once, through"),
    pytest.param(Case((_links(("link.py", "../outside/real.py")),), errors={"link.py": "outside the paths given"}), id="a link to a file outside the paths given is left and reported"),
    pytest.param(Case((_links(("link.py", "a.py")),), ("link.py",), {"link.py": "outside the paths given"}, ()), id="a link given alone, its target not given, is left and reported"),
    pytest.param(Case((_links(("gone.py", "nowhere.py")),), errors={"gone.py": "dangling"}), id="a dangling link is reported"),
    pytest.param(Case((_links(("loop1.py", "loop2.py"), ("loop2.py", "loop1.py")),), errors={"loop1.py": "a loop", "loop2.py": "a loop"}), id="a link loop is reported"),
    pytest.param(Case((lambda proj: os.link(proj / "a.py", proj / "b.py"),), migrated=("a.py", "b.py")), id="a hard link is a file of its own, migrated as such"),
    pytest.param(Case((), (".", "../proj")), id="a folder given twice is migrated once"),
    pytest.param(Case((_links(("up", "..")),)), id="a folder link to a parent is not followed"),
    pytest.param(Case((_links(("ext", "../outside")),)), id="a folder link to a folder outside is not followed"),
]  # fmt: skip


def _tree(tmp_path: Path, case: Case) -> Path:
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "real.py").write_text(LEGACY)
    proj = tmp_path / "proj"
    proj.mkdir()
    (proj / "a.py").write_text(LEGACY)
    for make in case.make:
        make(proj)
    return proj


def _cli(proj: Path, *args: str) -> tuple[int, str, str]:
    """The real command line (``codemods.cli.main``) in a child process that may not outlive ``TIMEOUT_S``."""
    command = [sys.executable, "-c", "import sys; from codemods.cli import main; sys.exit(main())"]
    done = subprocess.run(
        [*command, "--no-progress", "--format", "json", *args],
        cwd=proj,
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
        check=False,
    )
    return done.returncode, done.stdout, done.stderr


def _errors(text: str) -> dict[str, str]:
    """The ``error`` rows of the JSON findings at the start of ``text`` (stdout, or stderr with ``--diff``)."""
    rows, _ = json.JSONDecoder().raw_decode(text[text.index("[") :])
    return {row["path"]: row["message"] for row in rows if row["kind"] == "error"}


def _links_in(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): os.readlink(p) for p in sorted(root.rglob("*")) if p.is_symlink()}


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("mode", MODES)
def test_odd_file(case: Case, mode: str, tmp_path: Path) -> None:
    proj = _tree(tmp_path, case)
    links = _links_in(tmp_path)
    rc, out, err = _cli(proj, *MODES[mode], "-j", "1", *case.args)
    errors = _errors(err if mode == "diff" else out)
    assert set(errors) == set(case.errors), out + err
    for path, words in case.errors.items():
        assert words in errors[path] and errors[path].startswith("skipped: ")
    assert rc == (3 if case.errors else 1 if case.migrated else 0), out + err
    assert _links_in(tmp_path) == links, "every link is still a link, to the same target"
    assert (tmp_path / "outside" / "real.py").read_text() == LEGACY, "a file outside the paths given is never written"
    for name in ("a.py", "b.py", "pkg/z.py"):
        if (proj / name).exists():
            expected = MIGRATED if mode == "write" and name in case.migrated else LEGACY
            assert (proj / name).read_text() == expected, name
    if mode == "diff":
        # Once, under its own name: a link to it is the same file.
        assert out.count("+++ ") == len(case.migrated), out
        assert all(f"+++ b/{name}\n" in out for name in case.migrated), out


def test_parallel_and_serial_runs_agree(tmp_path: Path) -> None:
    """Every odd entry in one tree: ``-j1`` and ``-j2`` print the same findings and diffs."""
    everything = Case(
        (
            _fifo("pipe.py"),
            _bind_socket("sock.py"),
            _legacy("pkg/z.py"),
            _links(("0_link.py", "pkg/z.py"), ("out.py", "../outside/real.py"), ("gone.py", "nowhere.py")),
            _links(("loop1.py", "loop2.py"), ("loop2.py", "loop1.py"), ("up", ".."), ("ext", "../outside")),
        )
    )
    proj = _tree(tmp_path, everything)
    serial, parallel = _cli(proj, "--diff", "-j", "1", "."), _cli(proj, "--diff", "-j", "2", ".")
    assert serial == parallel
    assert serial[0] == 3
    assert set(_errors(serial[2])) == {"pipe.py", "sock.py", "out.py", "gone.py", "loop1.py", "loop2.py"}

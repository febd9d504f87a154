"""``python -m compat.lightning [--audit-json PATH] SCRIPT [ARGS...]``: run a Lightning 1.5 script on Lightning 2.x.

The script runs as ``__main__`` (``runpy``) with ``sys.argv`` as it would see it (``[SCRIPT, *ARGS]``), with the
shim installed; processes Lightning starts (its script launcher re-runs ``sys.argv`` for ``strategy="ddp"``) get
the shim through the environment (:mod:`compat.lightning._children`). ``--audit-json PATH`` (or the environment
variable ``COMPAT_LIGHTNING_AUDIT_JSON``) writes every legacy use warned about to PATH at exit.
"""

from __future__ import annotations

import argparse
import os
import runpy
import sys

from compat.lightning import install
from compat.lightning._children import AUDIT_JSON


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m compat.lightning", description=__doc__.splitlines()[0])
    parser.add_argument("--audit-json", metavar="PATH", help="write the legacy uses found to PATH (JSON) at exit")
    parser.add_argument("script", help="the Python script to run")
    parser.add_argument("args", nargs=argparse.REMAINDER, help="its arguments")
    options = parser.parse_args(argv)
    if options.audit_json:
        os.environ[AUDIT_JSON] = os.path.abspath(options.audit_json)
    sys.argv = [options.script, *options.args]
    sys.path.insert(0, os.path.dirname(os.path.abspath(options.script)))
    install()
    runpy.run_path(options.script, run_name="__main__")
    return 0


if __name__ == "__main__":
    sys.exit(main())

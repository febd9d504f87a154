"""A 1.5-style training script, run by the tests as ``python _launch_script.py FLAGS_JSON OUT_DIR``.

``accelerator="ddp"`` re-runs this very command for local rank 1, as it would a user's script; each
process writes what it saw to ``OUT_DIR/rank<N>.json``.
"""

from __future__ import annotations

import json
import sys
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import compat
from compat._warn import CompatDeprecationWarning
from tests.compat import _launch_workers

if __name__ == "__main__":
    flags, out = json.loads(sys.argv[1]), sys.argv[2]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        runner = compat.Runner(**flags)
    constructed = [str(w.message.notice.old) for w in caught if isinstance(w.message, CompatDeprecationWarning)]
    runner.launch(_launch_workers.save_report, out, constructed)

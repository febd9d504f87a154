"""Child of bench_connector.py, run by the Lightning 1.6.5 venv: time its AcceleratorConnector.

Reads the flag sets (JSON) from argv[1], fakes a 4-GPU machine the way tools/reference does,
and prints {flags id: [seconds per construction, ...]} as JSON.
"""

from __future__ import annotations

import json
import sys
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools" / "reference"))

import record_lightning  # tools/reference/record_lightning.py: the Lightning import
import record_machine  # tools/reference/record_machine.py: the hardware faking


def main() -> None:
    cases = json.loads(sys.argv[1])
    repeat = int(sys.argv[2])
    record_lightning._import_lightning()
    record_machine.apply_hardware({"cuda": 4}, False, record_machine._vendor_import_sites())
    from pytorch_lightning.trainer.connectors.accelerator_connector import AcceleratorConnector

    out: dict[str, list[float]] = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name, flags in cases.items():
            AcceleratorConnector(**flags)  # warm-up: first-use imports are not what we measure
            samples = []
            for _ in range(repeat):
                start = time.perf_counter()
                AcceleratorConnector(**flags)
                samples.append(time.perf_counter() - start)
            out[name] = samples
    print(json.dumps(out))


if __name__ == "__main__":
    main()

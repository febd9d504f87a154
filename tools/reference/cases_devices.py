"""The case matrix, sections 1-3: device flags alone, ``devices=`` with ``accelerator=``, several at once.

Standard library only. Importing this module adds its cases (``case_model.add``) after those of the sections before
it, which it imports first; ``cases.all_cases()`` returns them in that order, the recording order.
"""

from __future__ import annotations

from case_machines import CPU, CUDA2, CUDA4, HPU, IPU, TPU, hw
from case_model import add

# -- 1. device flags, one at a time ----------------------------------------------------------
add("defaults")
add("defaults", CUDA4)
add("defaults", TPU)
add("defaults", IPU)
add("defaults", HPU)

for g in (0, None, 1, 2, 4, -1, "0", "1", "2", "-1", "0,", "0,1", "1,3", "3", [0], [1], [0, 1], [1, 3], [0, 1, 2, 3]):
    add("gpus", CUDA4, gpus=g)
for g in (1, 2, "0,1", [0, 1], -1, "-1"):
    add("gpus", CUDA2, gpus=g)
for g in (0, None, 1, -1, "0", "-1", [0]):
    add("gpus", CPU, gpus=g)
for g in (5, [4], "4", [0, 0], "abc", "", [], 1.5):
    add("gpus", CUDA4, gpus=g)

for t in (1, 8, [5], "8", "1", "[5]", [1], "5,", 2, [1, 2], 0, None, "0"):
    add("tpu_cores", TPU, tpu_cores=t)
for t in (1, 8, [5]):
    add("tpu_cores", CPU, tpu_cores=t)

for n in (1, 4, 8, 0, None):
    add("ipus", IPU, ipus=n)
add("ipus", CPU, ipus=1)

for n in (1, 2, 4, 0, None):
    add("num_processes", CPU, num_processes=n)
add("num_processes", CUDA4, num_processes=2)

# -- 2. devices= together with accelerator= --------------------------------------------------
for acc, hws in (
    ("cpu", (CPU, CUDA4)),
    ("gpu", (CUDA4, CPU)),
    ("tpu", (TPU, CPU)),
    ("ipu", (IPU, CPU)),
    ("hpu", (HPU, CPU)),
    ("auto", (CPU, CUDA4, TPU, IPU)),
):
    for h in hws:
        add("accelerator", h, accelerator=acc)
        for d in (1, 2, "auto", "2", None):
            add("devices", h, accelerator=acc, devices=d)
for d in ([0, 1], [1, 3], "1,3", -1, "-1", 8, [0]):
    add("devices", CUDA4, accelerator="gpu", devices=d)
for d in (8, [5], "8", [1]):
    add("devices", TPU, accelerator="tpu", devices=d)
for d in (4, 8):
    add("devices", IPU, accelerator="ipu", devices=d)
for d in (-1, [0, 1], "1,2", 4):
    add("devices", CPU, accelerator="cpu", devices=d)
for h in (CPU, CUDA4):
    add("devices", h, devices=2)
    add("devices", h, devices="auto")
add("devices", CUDA4, accelerator=None, devices=2)
# Configs that write out 1.5's defaults (pyannote-audio's trainer group): num_processes=1 is the signature's
# default, and auto_select_gpus read no devices= (it picked only for an int gpus=).
add("devices", CPU, accelerator="auto", devices="auto", num_processes=1)
add("devices", CUDA4, accelerator="auto", devices="auto", num_processes=1)
add("devices", CUDA4, accelerator="gpu", num_processes=1)
add("devices", CUDA4, accelerator="auto", devices="auto", auto_select_gpus=True)
add("devices", CUDA4, accelerator="gpu", devices=[0, 1], auto_select_gpus=True)
# gpus= from an idiom (torch.cuda.device_count(), min(1, ...), ...) next to a DDP strategy: 1.5 ran one CPU
# process without it and any number of GPUs with it (tests/codemods/plan/test_non_literal_devices.py).
for _strategy in ("ddp", "ddp_spawn"):
    for _machine, _count in ((CPU, 0), (CUDA2, 1), (CUDA2, 2), (CUDA2, -1), (CUDA4, 1), (CUDA4, 4), (CUDA4, -1)):
        add("strategy_gpus", _machine, strategy=_strategy, gpus=_count)
for acc in ("GPU", "Cpu", "cuda", "mps", "xla"):
    add("accelerator", CUDA4, accelerator=acc, devices=1)

# -- 3. several device flags at once (precedence) -------------------------------------------
add("precedence", CUDA4, gpus=2, devices=3, accelerator="gpu")
add("precedence", CUDA4, gpus=2, devices=3)
add("precedence", CUDA4, gpus=2, devices=3, accelerator="auto")
add("precedence", CUDA4, gpus=2, num_processes=3)
add("precedence", CUDA4, gpus=2, num_processes=3, accelerator="gpu")
add("precedence", CUDA4, gpus=2, num_processes=3, accelerator="cpu")
add("precedence", CUDA4, gpus=2, accelerator="cpu")
add("precedence", CUDA4, gpus=2, accelerator="cpu", devices=3)
add("precedence", CUDA4, num_processes=2, accelerator="gpu")
add("precedence", CUDA4, num_processes=2, devices=3, accelerator="cpu")
add("precedence", CPU, num_processes=2, devices=3, accelerator="cpu")
add("precedence", CPU, num_processes=2, devices=3)
add("precedence", CUDA4, gpus=0, devices=2, accelerator="gpu")
add("precedence", CUDA4, gpus=[], devices=2, accelerator="gpu")
add("precedence", CUDA4, gpus=1, devices=2, accelerator="auto")
add("precedence", hw(4, tpu=True), gpus=2, tpu_cores=8)
add("precedence", hw(4, tpu=True), tpu_cores=8, accelerator="gpu")
add("precedence", hw(4, tpu=True), gpus=2, accelerator="tpu")
add("precedence", hw(4, tpu=True), accelerator="auto")
add("precedence", hw(4, tpu=True), accelerator="auto", devices=2)
add("precedence", hw(4, ipu=True), gpus=2, ipus=4)
add("precedence", hw(4, ipu=True), accelerator="auto")
add("precedence", hw(tpu=True, ipu=True), tpu_cores=8, ipus=4)
add("precedence", TPU, tpu_cores=8, devices=1, accelerator="tpu")
add("precedence", IPU, ipus=4, devices=1, accelerator="ipu")
add("precedence", CPU, num_processes=1, devices=2, accelerator="cpu")
add("precedence", CUDA4, gpus=2, num_processes=1)
add("precedence", CUDA4, gpus=2, tpu_cores=8)

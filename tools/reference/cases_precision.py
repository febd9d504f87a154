"""The case matrix, section 9: ``precision=`` and AMP (``amp_backend=``, ``amp_level=``).

Standard library only. Importing this module adds its cases (``case_model.add``) after those of the sections before
it, which it imports first; ``cases.all_cases()`` returns them in that order, the recording order.
"""

from __future__ import annotations

import cases_strategies  # noqa: F401  (the sections before these: importing it adds their cases first)
from case_machines import APEX4, CPU, CUDA4, DS4, HPU, IPU, TPU, hw
from case_model import add

# -- 9. precision and AMP --------------------------------------------------------------------
PRECISIONS = (16, 32, 64, "bf16", "16", "32", "64", "mixed", 8, "half", "16-mixed")
for p in PRECISIONS:
    add("precision", CPU, precision=p)
    add("precision", CUDA4, precision=p, gpus=1)
for p in (16, 32, 64, "bf16", "16", "mixed"):
    add("precision", CUDA4, precision=p, gpus=2, strategy="ddp")
    add("precision", CUDA4, precision=p, gpus=2, strategy="dp")
    add("precision", CPU, precision=p, num_processes=2, strategy="ddp")
    add("precision", TPU, precision=p, tpu_cores=8)
    add("precision", TPU, precision=p, tpu_cores=[1])
    add("precision", IPU, precision=p, ipus=4)
    add("precision", HPU, precision=p, accelerator="hpu", devices=1)
    add("precision", DS4, precision=p, gpus=2, strategy="deepspeed")
    add("precision", CUDA4, precision=p, gpus=2, strategy="ddp_sharded")
    add("precision", CUDA4, precision=p, gpus=2, strategy="ddp_sharded_spawn")
    add("precision", CUDA4, precision=p, gpus=2, strategy="fsdp")
for backend in ("native", "apex", "APEX", "Native", "bogus", None):
    for level in (None, "O1", "O2"):
        add("amp", APEX4, precision=16, gpus=1, amp_backend=backend, amp_level=level)
for backend, level in (("apex", None), ("apex", "O1"), ("native", "O2"), ("native", None)):
    add("amp", APEX4, precision=32, gpus=1, amp_backend=backend, amp_level=level)
    add("amp", hw(apex=True), precision=16, amp_backend=backend, amp_level=level)
    add("amp", hw(apex=True), precision="bf16", amp_backend=backend, amp_level=level)
    add("amp", APEX4, precision="bf16", gpus=1, amp_backend=backend, amp_level=level)
    add("amp", CUDA4, precision=16, gpus=1, amp_backend=backend, amp_level=level, note="apex not installed")
for strategy in ("ddp_sharded", "ddp_sharded_spawn", "fsdp", "deepspeed"):
    add("amp", hw(4, apex=True, deepspeed=True), precision=16, gpus=2, strategy=strategy, amp_backend="apex")
add("amp", TPU, precision=16, tpu_cores=8, amp_backend="apex")
add("amp", IPU, precision=16, ipus=4, amp_backend="apex")

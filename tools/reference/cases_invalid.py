"""The case matrix, section 14: invalid input.

Standard library only. Importing this module adds its cases (``case_model.add``) after those of the sections before
it, which it imports first; ``cases.all_cases()`` returns them in that order, the recording order.
"""

from __future__ import annotations

import cases_processes  # noqa: F401  (the sections before these: importing it adds their cases first)
from case_machines import CPU, CUDA4, IPU, TPU
from case_model import add

# -- 14. invalid input -------------------------------------------------------------------------
for acc, h in (("cpu", CPU), ("gpu", CUDA4), ("tpu", TPU), ("ipu", IPU), ("auto", CUDA4), (None, CUDA4)):
    for d in (0, [], "0", -2, "x"):
        add("invalid", h, accelerator=acc, devices=d)
add("invalid", CPU, accelerator="foo")
add("invalid", CPU, accelerator="")
add("invalid", CPU, strategy="")
add("invalid", CPU, strategy="foo")
add("invalid", CPU, plugins="foo")
add("invalid", CPU, precision=128)
add("invalid", CPU, precision=None)
add("invalid", CPU, gpus="x")
add("invalid", CPU, gpus=2)
add("invalid", CPU, gpus=[0, 1])
add("invalid", CUDA4, gpus=-2)
add("invalid", TPU, tpu_cores=3)
add("invalid", TPU, tpu_cores=[1, 2, 3])
add("invalid", TPU, tpu_cores=9)
add("invalid", CPU, amp_backend="foo")
add("invalid", CPU, num_processes=-1)
add("invalid", CPU, num_nodes=-1)
add("invalid", CPU, strategy=3)
add("invalid", CPU, accelerator=3)
add("invalid", CUDA4, auto_select_gpus=True, gpus=2)
add("invalid", CUDA4, auto_select_gpus=True, gpus=-1)
add("invalid", CPU, auto_select_gpus=True)

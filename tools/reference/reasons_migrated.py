"""Why newcore on the migrated code differs from compat on the original 1.5 flags (suite ``migrated``).

Rows of ``(suite, regex on the case id, regex on the JSON of the difference, why)``; ``divergences.py`` gives a new
divergence the ``why`` of the first row of its suite that matches. Standard library only: plain data.
"""

from __future__ import annotations

from reasons_compat import _15_RAISED

_NOT_MIGRATED = r'"not migrated"\]'

REASONS: list[tuple[str, str, str, str]] = [
    (
        "migrated",
        r"num_nodes=2",
        _NOT_MIGRATED,
        "Not migrated: 1.5 refused these flags on several nodes (dp runs in one process; one GPU per node"
        " needed strategy='ddp'), 1.6+ and newcore pick 'ddp' silently; the codemod leaves a TODO asking for"
        " strategy='ddp' instead of choosing for the user.",
    ),
    (
        "migrated",
        r"strategy='deepspeed', amp_backend='apex'",
        _NOT_MIGRATED,
        "Not migrated: with DeepSpeed, 1.5 handed apex AMP to DeepSpeed's own config (amp.enabled, amp.opt_level);"
        " there is no Trainer flag for it any more, so the codemod leaves a TODO to set it in the DeepSpeed config.",
    ),
    (
        "migrated",
        r"accelerator='auto', devices=1 \|",
        _NOT_MIGRATED,
        "Not migrated: accelerator='auto', devices=1 spawned one XLA process on a TPU machine in 1.5 and ran in"
        " place elsewhere; since 1.6 it runs in place everywhere and no one spelling selects both, so the codemod"
        " leaves a TODO.",
    ),
    (
        "migrated",
        r"precision='bf16', .*amp_backend='apex'",
        _NOT_MIGRATED,
        "Not migrated: apex has no bfloat16 AMP and 1.5 refused precision='bf16' with amp_backend='apex'; the"
        " codemod leaves a TODO instead of choosing native bf16 or apex float16.",
    ),
    (
        "migrated",
        r"",
        _NOT_MIGRATED,
        "Not migrated: the codemod leaves a TODO instead of guessing, because the flags conflict (two strategies,"
        " a device flag against accelerator=) or a value is invalid or not a literal it can translate. compat"
        " raises or resolves them as 1.5 did; the user chooses.",
    ),
    (
        "migrated",
        r"amp_level='O\d'",
        _15_RAISED,
        "1.5 (and compat) refused amp_level without amp_backend='apex'; the codemod drops the meaningless"
        " amp_level, so the migrated code runs with native AMP.",
    ),
    (
        "migrated",
        r"tpu_cores='?0'?|accelerator='ddp_cpu'.*cpu\+tpu|gpus=2, tpu_cores=8 \| cuda=4$",
        _15_RAISED,
        "1.5 refused these flags (tpu_cores=0, ddp_cpu on a TPU machine, tpu_cores without TPUs) and so does"
        " compat; the codemod drops or rewrites the offending flag, so the migrated code runs.",
    ),
]


REASONS.insert(
    0,
    (
        "migrated",
        r"accelerator='cpu', devices=(-\d|0) \||num_processes=-1 \||strategy='' \|",
        r"outcome",
        "compat refuses devices<1 for the CPU and an empty strategy name (1.5.10 ran one CPU process for them: see"
        " the compat suite); the codemod drops the value, so the migrated code runs one CPU process, as 1.5.10 did.",
    ),
)

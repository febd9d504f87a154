"""Why ``newcore`` selects differently from the recorded Lightning 1.6.5 (suite ``newcore``).

Rows of ``(suite, regex on the case id, regex on the JSON of the difference, why)``; ``divergences.py`` gives a new
divergence the ``why`` of the first row of its suite that matches. Standard library only: plain data.
"""

from __future__ import annotations

#: (suite, regex on the case id, regex on the json of the difference) -> why. First match wins.
REASONS: list[tuple[str, str, str, str]] = [
    ("newcore", r"hpu", "", "HPU (Habana) accelerators and strategies are out of this project's scope."),
    (
        "newcore",
        r"accelerator='(GPU|cuda|mps|xla|foo|)'|accelerator=3",
        "",
        "Lightning 1.6.5 silently fell back to the CPU for accelerator values it did not know; newcore refuses"
        " unknown names (listing the valid ones), reads names case-insensitively and knows 'cuda' and 'mps'.",
    ),
    (
        "newcore",
        r"strategy='(dp|ddp2)'|DataParallelStrategy\(\)|DDP2Strategy\(\)",
        r"outcome",
        "dp/ddp2 on the CPU: Lightning warned and ran ddp; newcore raises and tells you to pass strategy='ddp',"
        " accelerator='cpu' (no silent fallbacks).",
    ),
    (
        "newcore",
        r"strategy='ddp_(fork|notebook)'",
        "",
        "ddp_fork/ddp_notebook arrived in Lightning 1.7; newcore has them.",
    ),
    (
        "newcore",
        r"precision='(16|32|64|16-mixed)'|precision=None",
        "",
        "String precisions failed in 1.6.5 ('No precision set'); newcore accepts them and the 2.0 spellings,"
        " and precision=None means the default (32).",
    ),
    ("newcore", r"num_nodes=(0|-1)|devices=-2", "", "Lightning accepted non-positive counts; newcore refuses them."),
    ("newcore", r"devices='2' \| cpu\+ipu", "", "newcore parses digit strings alike for every accelerator."),
    (
        "newcore",
        r"plugins=\[\w+\(.*\)\], precision=16",
        "",
        "A precision flag that disagrees with the precision plugin passed is a conflict in newcore, not a silent"
        " preference for the plugin.",
    ),
    (
        "newcore",
        r"horovod",
        r"outcome",
        "Horovod takes its process count from horovodrun: newcore refuses devices>1 with strategy='horovod'.",
    ),
    (
        "newcore",
        r"horovod",
        r"num_devices",
        "Under horovodrun newcore gives each process its own device (read from horovod at setup); Lightning listed"
        " every local device on the strategy.",
    ),
    (
        "newcore",
        r"SingleTPUStrategy\(1\)|TPUSpawnStrategy\(\)|tpu_spawn_debug",
        "",
        "A strategy that runs only on TPUs implies accelerator='tpu' in newcore; Lightning attached the CPU.",
    ),
    (
        "newcore",
        r"accelerator='tpu_spawn'",
        "",
        "A strategy name in accelerator= is a legacy spelling: compat maps it.",
    ),
    (
        "newcore",
        r"strategy='single_device', accelerator='cpu', devices=2",
        "",
        "A single-device strategy with several devices is refused rather than dropping devices silently.",
    ),
]

"""Why real Lightning 2.6.6 on the migrated code differs from 1.5.10 on the original (suite ``real-2.x``).

Rows of ``(suite, regex on the case id, regex on the JSON of the difference, why)``; ``divergences.py`` gives a new
divergence the ``why`` of the first row of its suite that matches. Standard library only: plain data.
"""

from __future__ import annotations

#: Reasons of the real-2.x suite (tests/parity/test_real_target.py), first match wins.
REASONS: list[tuple[str, str, str, str]] = [
    (
        "real-2.x",
        r"kubeflow",
        r"environment",
        "2.x no longer detects Kubeflow (KubeflowEnvironment.detect() raises: it cannot be detected automatically);"
        " pass plugins=[KubeflowEnvironment()] on a Kubeflow PyTorchJob (MIGRATION.md, Cluster scripts).",
    ),
    (
        "real-2.x",
        r"slurm",
        r"environment",
        "A SLURM allocation whose task count does not match devices x nodes: 1.5 ignored SLURM and launched its own"
        " processes; 2.x uses SLURMEnvironment. Ask sbatch for --ntasks-per-node=<devices> (MIGRATION.md, Cluster"
        " scripts).",
    ),
    (
        "real-2.x",
        r"^interactive",
        r"",
        "A strategy the old code named that spawned (or re-ran the script) in a notebook: 2.x refuses it there ('not"
        " compatible with an interactive environment'); the migrated notebook carries a TODO naming ddp_notebook.",
    ),
    (
        "real-2.x",
        r"^defaults: \(no flags\)",
        r"",
        "Trainer() with no flags: 1.x trained on one CPU, 2.x takes every accelerator it finds. Nothing legacy to"
        " migrate; reported (Selection policy, 'one CPU device when no device is named').",
    ),
    (
        "real-2.x",
        r"^precedence|^conflict|plugins=\['ddp_sharded', 'ddp_find",
        r"",
        "Conflicting device or strategy flags that 1.5 resolved by precedence: the codemod leaves a TODO to choose"
        " one instead of spelling the winner.",
    ),
    (
        "real-2.x",
        r"^invalid|num_nodes=0",
        r"",
        "An invalid value 1.5 accepted and ignored (an empty or numeric strategy name, num_nodes below 1): 2.x"
        " refuses it; the codemod leaves a TODO instead of guessing what was meant.",
    ),
    (
        "real-2.x",
        r"accelerator='tpu_spawn'",
        r"",
        "accelerator='tpu_spawn' selected DDP on CPUs and GPUs and the XLA strategy on TPUs in 1.5: a TODO asks"
        " which one was meant.",
    ),
    (
        "real-2.x",
        r"devices='2' \| cpu\+tpu",
        r"",
        "devices='2' on a TPU host was core number 2 in 1.5 (a string listed core indices); 2.x refuses it: write"
        " devices=[2].",
    ),
    (
        "real-2.x",
        r"plugins=\[PrecisionPlugin\(\)\], tpu_cores",
        r"",
        "A plain PrecisionPlugin() on TPUs: 1.5 used it as 32-bit XLA precision; 2.x requires XLAPrecision.",
    ),
    (
        "real-2.x",
        r"amp_backend='apex'",
        r"",
        "apex AMP is gone in 2.x: the codemod leaves a TODO.",
    ),
    (
        "real-2.x",
        r"",
        r"",
        "1.5 selected something 2.x no longer has (DataParallel, DDP2, Horovod, FairScale, IPUs, apex, DeepSpeed in"
        " float64, an XLA strategy without TPUs): the migrated code carries a TODO naming the replacement.",
    ),
]

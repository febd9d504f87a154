"""Trainer overrides written as command lines: shell scripts, Makefiles, docs, Python strings.

``front`` turns each command's decision into text edits. Phase one reads and decides the commands, since a
command migrates together with the configs it applies to: ``codemods.project.command_syntax`` finds the overrides
of one command (Hydra ``trainer.gpus=2``, LightningCLI ``--trainer.gpus 2``, ``add_argparse_args``' ``--gpus 2``),
``codemods.project.command_plans`` plans them with the flag rules the Python and YAML front ends share and decides
each new key's Hydra prefix from the project's configs (``codemods.project.section_fates``: what each config keeps
once the run is over).
"""

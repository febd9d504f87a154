"""Trainer overrides written as command lines: shell scripts, Makefiles, docs, Python strings.

``syntax`` finds the overrides of one command (Hydra ``trainer.gpus=2``, LightningCLI ``--trainer.gpus 2``,
``add_argparse_args``' ``--gpus 2``); ``decide`` plans them with the flag rules the Python and YAML front ends
share and decides each new key's Hydra prefix from the project's configs (``fates``: what each config keeps once
the run is over); ``front`` turns that into text edits.
"""

#!/bin/bash
# DDP on one GPU: the config's accelerator stays in force next to gpus=1
# TODO(migrate-trainer): trainer.gpus=1: its new keys would override the legacy trainer.accelerator that conf/config.yaml keeps; left as it is, migrate them together by hand [overrides]
python src/train.py trainer.gpus=1 trainer.max_epochs=5

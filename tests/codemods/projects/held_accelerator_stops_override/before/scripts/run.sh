#!/bin/bash
# DDP on one GPU: the config's accelerator stays in force next to gpus=1
python src/train.py trainer.gpus=1 trainer.max_epochs=5

#!/bin/sh
python train.py \
  trainer.accelerator=gpu trainer.devices=4 \
  trainer.precision=16

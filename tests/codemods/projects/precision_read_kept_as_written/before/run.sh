#!/bin/sh
python train.py \
  trainer.gpus=4 \
  trainer.precision=16

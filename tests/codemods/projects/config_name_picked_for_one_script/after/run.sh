#!/bin/sh
python lm.py \
  --config-name=lm \
  trainer.max_epochs=1

#!/bin/sh
# TODO(migrate-trainer): trainer.gpus=$NGPU is a shell variable or substitution: left as it is, rewrite it by hand [overrides]
python train.py --config-name a trainer.gpus=$NGPU

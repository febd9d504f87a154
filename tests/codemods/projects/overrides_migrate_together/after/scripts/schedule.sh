#!/bin/bash
# Train on one GPU, then on four with DDP
python train.py trainer.accelerator=gpu trainer.devices=1 trainer.max_epochs=20
python train.py trainer=ddp trainer.accelerator=gpu trainer.devices=4 \
  +trainer.precision=16-mixed
python train.py trainer.accelerator=tpu trainer.devices=8

# a value read from the environment stays, with a TODO; it holds no key a config drops
# TODO(migrate-trainer): trainer.amp_level=$AMP_LEVEL is a shell variable or substitution: left as it is, rewrite it by hand [overrides]
python train.py -m trainer.max_epochs=5,10 +trainer.amp_level=$AMP_LEVEL

#!/bin/bash
# Train on one GPU, then on four with DDP
python train.py trainer.gpus=1 trainer.max_epochs=20
python train.py trainer=ddp trainer.gpus=4 \
  +trainer.precision=16
python train.py +trainer.tpu_cores=8

# a value read from the environment stays, with a TODO; it holds no key a config drops
python train.py -m trainer.max_epochs=5,10 +trainer.amp_level=$AMP_LEVEL

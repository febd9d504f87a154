#!/bin/sh
# the named config has no gpus: its devices are what this command overrides, in 1.5 too
python train.py --config-name one_gpu trainer.devices=1 trainer.strategy=auto
# the default config's gpus: 2 beat devices= in 1.5: the token goes
python train.py

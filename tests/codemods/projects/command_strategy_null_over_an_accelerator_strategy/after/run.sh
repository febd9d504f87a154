#!/bin/sh
# no strategy of its own: 1.5 still ran the config's accelerator: ddp
python train.py trainer.strategy=auto trainer.max_epochs=1

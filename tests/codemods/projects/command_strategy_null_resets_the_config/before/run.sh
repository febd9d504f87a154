#!/bin/sh
# one GPU, no DDP
python train.py trainer.devices=[0] trainer.strategy=null trainer.max_epochs=1

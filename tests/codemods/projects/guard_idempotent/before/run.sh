#!/bin/sh
python train.py --config-name a trainer.gpus=$NGPU

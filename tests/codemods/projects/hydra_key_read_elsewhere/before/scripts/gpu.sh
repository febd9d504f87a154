#!/bin/sh
python src/train.py trainer.gpus=2 trainer.max_epochs=10

#!/bin/sh
python src/train.py trainer.accelerator=gpu trainer.devices=2 trainer.max_epochs=10

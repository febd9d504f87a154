#!/bin/sh
python run.py trainer.accelerator=gpu trainer.devices=8 trainer.max_epochs=100
python run.py trainer.accelerator=cpu trainer.devices=1 trainer.max_epochs=1

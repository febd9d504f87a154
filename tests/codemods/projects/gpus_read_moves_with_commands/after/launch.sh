#!/bin/sh
python run.py trainer.accelerator=gpu trainer.devices=1 trainer.max_epochs=100

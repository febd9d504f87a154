#!/bin/sh
python run.py trainer.gpus=8 trainer.max_epochs=100
python run.py trainer.gpus=0 trainer.max_epochs=1

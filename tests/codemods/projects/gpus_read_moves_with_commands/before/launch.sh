#!/bin/sh
python run.py trainer.gpus=1 trainer.max_epochs=100

#!/bin/bash
python run.py trainer=default \
  batch_size=48 trainer.gpus=1

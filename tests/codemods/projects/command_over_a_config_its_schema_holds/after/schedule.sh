#!/bin/bash
python run.py trainer=default \
  batch_size=48 trainer.accelerator=gpu ++trainer.devices=1

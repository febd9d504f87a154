#!/bin/sh
# Each command sets the Trainer of the config its own script loads.
python asr/train.py trainer.accelerator=gpu trainer.devices=4
python tts/train.py +trainer.strategy=auto trainer.max_epochs=3
python asr/train.py --config-path conf/variants --config-name big trainer.max_epochs=1

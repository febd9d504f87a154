python train.py trainer.gpus=4

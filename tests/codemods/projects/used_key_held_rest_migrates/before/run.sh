python train.py -m trainer.gpus=4,8

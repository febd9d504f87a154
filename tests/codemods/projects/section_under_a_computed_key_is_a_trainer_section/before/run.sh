python train.py decoder_trainer.gpus=2 tagger_model.lr=0.2

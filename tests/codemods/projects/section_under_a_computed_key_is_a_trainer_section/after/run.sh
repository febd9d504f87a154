# TODO(migrate-trainer): decoder_trainer.gpus=2: the project passes decoder_trainer to a Trainer, whose keys migrate in the configs and which Lightning 2.6 refuses as written: rewrite this override with the keys the config now holds [overrides]
python train.py decoder_trainer.gpus=2 tagger_model.lr=0.2

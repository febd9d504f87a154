# TODO(migrate-trainer): trainer.gpus=4,8 is a sweep (values separated by commas run one job each): left as it is, rewrite it by hand [overrides]
python train.py -m trainer.gpus=4,8

"""Train.

    python train.py \
        trainer.gpus=[<CHANGE_TO_GPU(s)_YOU_WANT_TO_USE>] \
        trainer.max_epochs=2

    python train.py trainer.gpus="[<CHANGE_TO_GPU_YOU_WANT_TO_USE>]"
"""
import hydra
import pytorch_lightning as pl


@hydra.main(config_path="conf", config_name="config")
def main(cfg):
    trainer = pl.Trainer(**cfg.trainer)
    trainer.fit(None)


def sweep():
    command = "python train.py" + " trainer.gpus=[GPU]"
    return command

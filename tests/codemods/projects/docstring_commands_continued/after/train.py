"""Train the toy model.

On the CPU, for a quick look:
    python train.py \
        # (optional: --config-name=<another config>) \
        data.path="<a folder>" \
        trainer.gpus=0 \
        trainer.max_epochs=3

On two GPUs:
    python train.py \
    data.path="./data" \
    trainer.accelerator=gpu trainer.devices=2 \
    trainer.max_epochs=20
"""
import hydra
import pytorch_lightning as pl


@hydra.main(config_path="conf", config_name="config")
def main(cfg):
    trainer = pl.Trainer(**cfg.trainer)
    return trainer


if __name__ == "__main__":
    main()

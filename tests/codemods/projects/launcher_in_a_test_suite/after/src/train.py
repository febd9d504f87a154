import pytorch_lightning as pl


def main(model):
    trainer = pl.Trainer(accelerator="cpu", devices=2, max_epochs=1)
    trainer.fit(model)

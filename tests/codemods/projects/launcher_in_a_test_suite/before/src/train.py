import pytorch_lightning as pl


def main(model):
    trainer = pl.Trainer(accelerator="ddp_cpu", num_processes=2, max_epochs=1)
    trainer.fit(model)

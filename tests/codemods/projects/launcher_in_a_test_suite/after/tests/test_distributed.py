import pytorch_lightning as pl


def test_two_cpu_processes(model):
    trainer = pl.Trainer(accelerator="cpu", devices=2, strategy="ddp_spawn", max_epochs=1)
    trainer.fit(model)


def test_two_gpus(model):
    trainer = pl.Trainer(accelerator="gpu", devices=2, max_epochs=1, strategy="ddp_spawn")
    trainer.fit(model)


def test_chosen_launcher(model):
    trainer = pl.Trainer(strategy="ddp", accelerator="cpu", devices=2)
    trainer.fit(model)

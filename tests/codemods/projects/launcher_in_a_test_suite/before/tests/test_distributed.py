import pytorch_lightning as pl


def test_two_cpu_processes(model):
    trainer = pl.Trainer(accelerator="ddp_cpu", num_processes=2, max_epochs=1)
    trainer.fit(model)


def test_two_gpus(model):
    trainer = pl.Trainer(gpus=2, max_epochs=1)
    trainer.fit(model)


def test_chosen_launcher(model):
    trainer = pl.Trainer(accelerator="ddp", num_processes=2)
    trainer.fit(model)

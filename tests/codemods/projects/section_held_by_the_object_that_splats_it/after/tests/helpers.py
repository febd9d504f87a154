from tests.trainer_mock import LightningTrainerMock


def make_trainer(config, model):
    trainer = LightningTrainerMock(config)
    trainer.model = model
    trainer.load_trainer()
    return trainer


def config_overrides():
    return {"trainer": {"params": {"gpus": 0, "max_steps": 5}}}

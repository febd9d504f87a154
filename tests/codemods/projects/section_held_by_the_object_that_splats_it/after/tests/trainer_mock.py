from vlpkg.trainers.lightning_trainer import LightningTrainer


class LightningTrainerMock(LightningTrainer):
    def __init__(self, config, steps=10):
        super().__init__(config)
        self.steps = steps

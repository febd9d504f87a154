import unittest

import pytorch_lightning as pl
import torch

from bandits.linucb import LinUCBTrainer


class TestLinUCB(unittest.TestCase):
    def setUp(self):
        self.trainer = LinUCBTrainer(3)

    def test_step_then_epoch_end(self):
        self.trainer.training_step(torch.ones(2, 3), 0)
        self.trainer.on_train_epoch_end()

    def test_a_fresh_one(self):
        trainer = LinUCBTrainer(3)
        trainer.on_train_epoch_end()

    def test_fit(self):
        trainer = pl.Trainer(gpus=0, max_epochs=1)
        trainer.fit(LinUCBTrainer(3), [torch.ones(2, 3)])

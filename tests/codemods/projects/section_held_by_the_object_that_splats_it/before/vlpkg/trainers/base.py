from abc import ABC


class BaseTrainer(ABC):
    def __init__(self, config):
        self.config = config

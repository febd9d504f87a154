from speech.configs.trainer_conf import SpeechConfig, SpeechTrainerConf
from speech.training import train


def make_config(epochs, gpus):
    return SpeechConfig(trainer=SpeechTrainerConf(max_epochs=epochs, gpus=gpus))


def run(gpus):
    cuda = gpus > 0
    return train(make_config(epochs=1, gpus=gpus)), cuda


def test_cpu():
    run(gpus=0)

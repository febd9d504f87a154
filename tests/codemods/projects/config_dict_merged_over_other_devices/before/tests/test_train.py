from omegaconf import OmegaConf

from train import main


def test_cpu_override(base):
    # over conf/tpu.yaml, 1.5 still ran the 8 TPU cores: gpus=0 chose nothing
    main(OmegaConf.merge(base, {"trainer": {"gpus": 0}}))

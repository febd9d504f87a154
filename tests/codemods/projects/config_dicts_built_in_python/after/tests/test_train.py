import torch
from omegaconf import OmegaConf

from train import main


def test_cpu_run():
    cfg = OmegaConf.create({"trainer": {"accelerator": "cpu", "devices": 1, "max_epochs": 1}})
    assert main(cfg).max_epochs == 1


def test_gpu_if_any():
    cfg = OmegaConf.create({"trainer": {"accelerator": "gpu" if torch.cuda.is_available() else "cpu", "devices": 1, "max_epochs": 1}})
    main(cfg)


def test_quiet_override(base):
    main(OmegaConf.merge(base, {"trainer": {"enable_progress_bar": False}}))


def test_cpu_override(base):
    main(OmegaConf.merge(base, {"trainer": {"accelerator": "cpu", "devices": 1}}))


def test_payload_is_no_config():
    payload = {"trainer": {"gpus": 1}}  # sent to a service that runs its own Lightning
    return payload

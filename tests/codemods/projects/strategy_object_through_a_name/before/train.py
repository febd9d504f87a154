import hydra
from pytorch_lightning import Trainer
from pytorch_lightning.plugins import DDPPlugin, NativeMixedPrecisionPlugin


@hydra.main(config_path="conf", config_name="config")
def main(cfg):
    plugins = [DDPPlugin(find_unused_parameters=False)]
    if cfg.get("amp"):
        plugins.append(NativeMixedPrecisionPlugin(precision=16, device="cuda"))
    return Trainer(plugins=plugins, **cfg.trainer)

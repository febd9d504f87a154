import hydra
from pytorch_lightning import Trainer
from pytorch_lightning.plugins import MixedPrecisionPlugin
from pytorch_lightning.strategies import DDPStrategy


@hydra.main(config_path="conf", config_name="config")
def main(cfg):
    plugins = [DDPStrategy(find_unused_parameters=False)]
    if cfg.get("amp"):
        plugins.append(MixedPrecisionPlugin(precision="16-mixed", device="cuda"))
    # TODO(migrate-trainer): plugins=plugins may hold a DDPStrategy (a strategy): 1.7 removed strategies from plugins=: pass it as strategy= (where it may be None, 2.0 wants strategy="auto" instead) [plugins_strategy]
    return Trainer(plugins=plugins, **cfg.trainer)

import hydra
import pytorch_lightning as pl


@hydra.main(config_path="conf", config_name="config")
def main(cfg):
    # TODO(migrate-trainer): accelerator=cfg.get("backend") may name a strategy (ddp, dp, ...): strategy names go to strategy= since 1.5, accelerator= takes cpu/gpu/tpu/ipu/auto [accelerator_strategy]
    return pl.Trainer(num_nodes=2, plugins=[], accelerator=cfg.get("backend"), **cfg.trainer)

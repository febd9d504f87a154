def slurm_settings(cfg):
    return {"gpus_per_node": (cfg.trainer.devices if cfg.trainer.accelerator == "gpu" else 0)}

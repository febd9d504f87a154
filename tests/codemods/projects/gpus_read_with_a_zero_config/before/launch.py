def slurm_settings(cfg):
    return {"gpus_per_node": cfg.trainer.gpus}

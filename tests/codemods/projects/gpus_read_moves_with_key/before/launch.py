import pytorch_lightning as pl


def slurm_settings(cfg):
    # the scheduler is asked for one task per GPU
    return {
        "gpus_per_node": cfg.trainer.gpus,
        "tasks_per_node": cfg.trainer.gpus,
        "nodes": cfg.trainer.num_nodes,
    }


def train(cfg, model):
    trainer = pl.Trainer(**cfg.trainer)
    trainer.fit(model)
    return self_check(trainer)


def self_check(trainer):
    return trainer.num_nodes

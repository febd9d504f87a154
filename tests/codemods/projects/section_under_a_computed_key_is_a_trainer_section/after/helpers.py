import pytorch_lightning as pl

TAGGER, DECODER = "tagger", "decoder"


def build(cfg, model_name):
    # which Trainer section is chosen at run time: every key the f-string can spell is one
    trainer_cfg = cfg.get(f"{model_name}_trainer")
    return pl.Trainer(**trainer_cfg)

from factory import build


def main(cfg, model):
    trainer = build(cfg, logger=True)
    trainer.tune(model)
    trainer.fit(model)

# A cookiecutter-style template: not Python until rendered, so it is not rewritten, but what it
# says of the config still counts.


def {{ cookiecutter.entry_point }}(cfg):
    if cfg.debug:
        cfg.trainer.gpus = 0

def build(config):
    distributed = config.trainer.kwargs.get("accelerator", None) == "ddp"
    return make_model(config.model, distributed=distributed)

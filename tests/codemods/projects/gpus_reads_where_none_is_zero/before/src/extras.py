def debug_friendly(config):
    """Debuggers don't like GPUs."""
    if config.debug:
        if config.trainer.get("gpus"):
            config.trainer.gpus = 0
    return bool(config.trainer.get('gpus')) and config.trainer.max_epochs > 1

def debug_friendly(config):
    """Debuggers don't like GPUs."""
    if config.debug:
        if (config.trainer.get("devices") if config.trainer.get("accelerator") == "gpu" else 0):
            config.trainer.accelerator = "cpu"
            config.trainer.devices = 1
    return bool((config.trainer.get("devices") if config.trainer.get("accelerator") == "gpu" else 0)) and config.trainer.max_epochs > 1

"""1.5 layout: ``pytorch_lightning.plugins.training_type.ipu`` (see :mod:`compat.modules`)."""

from compat.modules import module_getattr

__getattr__ = module_getattr(__name__)

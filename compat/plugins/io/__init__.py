"""1.5 layout: ``pytorch_lightning.plugins.io`` (see :mod:`compat.modules`)."""

from compat.modules import module_getattr

__getattr__ = module_getattr(__name__)

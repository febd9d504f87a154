"""1.5 layout: ``pytorch_lightning.plugins.precision.tpu_bfloat`` (see :mod:`compat.modules`)."""

from compat.modules import module_getattr

__getattr__ = module_getattr(__name__)

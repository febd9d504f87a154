"""1.5 layout: ``pytorch_lightning.utilities.exceptions`` (see :mod:`compat.modules`)."""

from compat.modules import module_getattr

__getattr__ = module_getattr(__name__)

"""Layer synchronisation across processes (``sync_batchnorm=True``)."""

from __future__ import annotations

from abc import ABC, abstractmethod

import torch


class LayerSync(ABC):
    """Swaps layers for synchronised versions before training and back afterwards."""

    @abstractmethod
    def apply(self, model: torch.nn.Module) -> torch.nn.Module:
        """Return ``model`` with its layers replaced by synchronised ones."""

    @abstractmethod
    def revert(self, model: torch.nn.Module) -> torch.nn.Module:
        """Undo :meth:`apply`."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class NativeSyncBatchNorm(LayerSync):
    """``torch.nn.SyncBatchNorm``: batch statistics are reduced over all processes."""

    def apply(self, model: torch.nn.Module) -> torch.nn.Module:
        converted: torch.nn.Module = torch.nn.SyncBatchNorm.convert_sync_batchnorm(model)  # type: ignore[no-untyped-call]
        return converted

    def revert(self, model: torch.nn.Module) -> torch.nn.Module:
        converted: torch.nn.Module = model
        if isinstance(model, torch.nn.SyncBatchNorm):
            converted = _BatchNormXd(
                model.num_features, model.eps, model.momentum, model.affine, model.track_running_stats
            )
            if model.affine:
                with torch.no_grad():
                    converted.weight = model.weight
                    converted.bias = model.bias
            converted.running_mean = model.running_mean
            converted.running_var = model.running_var
            converted.num_batches_tracked = model.num_batches_tracked
            if hasattr(model, "qconfig"):
                converted.qconfig = model.qconfig
        for name, child in model.named_children():
            converted.add_module(name, self.revert(child))
        return converted


class _BatchNormXd(torch.nn.modules.batchnorm._BatchNorm):
    """A batch norm that accepts any input rank, as ``SyncBatchNorm`` does."""

    def _check_input_dim(self, input: torch.Tensor) -> None:
        return None

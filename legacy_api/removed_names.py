"""Lightning modules and names that left the package for another one, where the recorded surfaces cannot say so.

Read by rule ``removed_names`` for its TODO (the surfaces say a name is gone; this says where it went). Each row was
checked: the name is in the recorded surface of the releases before its removal and in none after.
"""

from __future__ import annotations

#: Old module or name -> where it went (deprecated in 1.3, the module gone from 1.5: recorded in 1.4.9 only).
MOVED_OUT: dict[str, str] = {
    "pytorch_lightning.metrics": "it became the torchmetrics package (pip install torchmetrics; "
    "pytorch_lightning.metrics.X is torchmetrics.X, whose arguments changed since: Accuracy takes task=)",
}

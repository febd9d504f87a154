"""migrate-trainer: rewrite legacy (<= 1.5) Lightning code and configs to the strategy API.

Importing this package is cheap: it imports neither torch nor libcst. The rules live in
``codemods.rules``, the shared rename table in ``codemods.renames`` (standard library only).
"""

__version__ = "0.1.0"

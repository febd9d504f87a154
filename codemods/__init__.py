"""migrate-trainer: rewrite legacy (<= 1.5) Lightning code and configs to the strategy API.

The pipeline, in the order a run goes through it (``runner.run``):

1. **index** (``index``): every file given (and the scripts, docs and notebooks beside them) is scanned once,
   in parallel: the text prefilter (``prefilter``), the project's own strategy subclasses, and where each key
   of a config's Trainer section is used. ``project`` decides from that index what a file alone cannot.
2. **plan** (``plan``, ``planning``, ``rules/``): each set of Trainer flags (a call, a dict, a YAML section)
   becomes a :class:`~codemods.plan.Plan`; the rules (one module each, discovered, ordered by
   :attr:`~codemods.rule.Rule.order`) rewrite it. Old names resolve through the renames table (``resolve``,
   on ``legacy_api.renames``, which ``compat`` shares).
3. **edits**: the Python front end (``python/``: one libcst pass over the statements that matter) and the YAML
   front end (``configs/``: text spans located by the parser's marks) turn plans and renames into minimal
   edits; what they found is a :class:`~codemods.model.Finding` (``model`` holds the data every stage shares).
4. **write** (``files``, ``runner``, ``report``, ``cli``): atomically, byte-identical where nothing changed;
   findings as text, JSON, GitHub annotations or SARIF.

Importing this package is cheap: it imports neither torch nor libcst. No module imports another that imports
it back (``tests/test_layout.py`` checks, imports inside functions included).
"""

__version__ = "0.1.0"

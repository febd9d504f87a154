"""migrate-trainer: rewrite legacy (<= 1.5) Lightning code and configs to the strategy API.

The folders are the stages a run goes through (``runner.run``), in order:

1. ``project/`` -- phase one: every file given (and the scripts, docs and notebooks beside them) is scanned once,
   in parallel, into the project index (``scan_*``, the text ``prefilter``, the project's Trainer subclasses);
   then the decisions that need the whole project (may a config's Trainer section migrate, which reads move with it).
2. ``plan/`` -- each set of Trainer flags (a call, a dict, a YAML section, a command line) becomes a syntax-free
   :class:`~codemods.plan.model.Plan`, and one loop runs the rules over it; old names resolve through the renames
   table of ``legacy_api``, which ``compat`` shares.
3. ``rules/`` -- one module per rule, named by its id, discovered and run in one order.
4. ``frontends/`` -- one folder per kind of file (``python/``, ``yaml/``, ``commands/``, ``notebooks/``, ``docs/``)
   turns plans and renames into minimal edits; what they find is a :class:`~codemods.model.Finding`.
5. The run and its output, at the top: ``runner`` (the two phases over a process pool), ``files`` (reading and
   writing atomically, byte-identical where nothing changed), ``report`` (text, JSON, GitHub, SARIF) and ``cli``;
   ``model`` holds the plain data every stage shares.

Importing this package is cheap: it imports neither torch nor libcst. No module imports another that imports it
back, ``TYPE_CHECKING`` imports included (``tests/test_layout.py`` checks).
"""

__version__ = "0.1.0"

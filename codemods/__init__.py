"""migrate-trainer: rewrite legacy (<= 1.5) Lightning code and configs to the strategy API.

The folders are the stages a run goes through (``runner.run``), in order:

1. ``project/`` -- phase one: every file given (and the scripts, docs and notebooks beside them) is scanned once,
   in parallel, into the project index (``scan``, the text ``prefilter``, the project's Trainer subclasses); then
   the decisions that need the whole project: may a config's Trainer section migrate, which reads move with it,
   which command lines migrate with the configs.
2. ``plan/`` -- each set of Trainer flags (a call, a dict, a YAML section, a command line) becomes a syntax-free
   :class:`~codemods.plan.model.Plan`, and one loop (``apply_rules``) runs the rules over it; old names resolve
   through the renames table of ``legacy_api``, which ``compat`` shares.
3. ``rules/`` -- one module per rule, named by its id, discovered and run in one order.
4. ``frontends/`` -- one folder per kind of file (``python/``, ``yaml/``, ``commands/``, ``notebooks/``, ``docs/``)
   turns plans and renames into minimal edits; what they find is a :class:`~codemods.model.Finding`.
5. The run and its output, at the top: ``runner`` (the two phases over a process pool), ``files`` (finding, reading
   and writing files, byte-identical where nothing changed), ``report`` (text, JSON, GitHub, SARIF) and ``cli``;
   ``model`` and ``kinds`` hold what every stage shares (the data of a run, what kind each file is).

A stage imports only the stages before it, and no module imports another that imports it back, ``TYPE_CHECKING``
imports included; ``tests/test_layout.py`` checks both, with the order its ``STAGES`` spells out (the rules read
the Python front end's file context, and phase one's decisions plan with the rules). Importing this package is
cheap: it imports neither torch nor libcst.
"""

__version__ = "0.1.0"

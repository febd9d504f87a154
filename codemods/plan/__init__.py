"""The plan: a syntax-free model of one set of Trainer flags, and the one loop that runs the rules over it.

``model`` holds :class:`~codemods.plan.model.Plan`; ``rule`` says what a rule is; ``apply_rules`` runs the
registered rules (``codemods.rules``) over a plan in their one order. ``resolve`` reads the renames table of
``legacy_api``, and ``expressions`` builds the ``accelerator=``/``devices=`` pair for a value that is not a literal.
"""

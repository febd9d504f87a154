"""Phase one: the project index, and the decisions that need the whole project.

``scan`` reads each file once (``scan_file`` dispatches to ``scan_python``, ``scan_yaml``, ``scan_text``; the
``prefilter`` says which files and lines can matter at all; ``trainer_classes`` finds the project's own Trainer
subclasses; ``command_syntax`` reads command lines) into its share of the
:class:`~codemods.project.index.ProjectIndex`; ``facts`` answers the questions only some runs ask, about the keys
``keys`` lists. From the merged index, ``decisions``, ``guard``, ``section_plans`` and ``moved_reads`` decide what
one file alone cannot: may a config's Trainer section migrate, and which reads of its keys move with it;
``command_plans`` and ``section_fates`` decide which command lines migrate with the configs.

The index is standard library only, so a ``--check`` of a clean tree imports no libcst; the decisions plan with
the rules, and load them.
"""

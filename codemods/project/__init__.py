"""Phase one: the project index, and the decisions that need the whole project.

``scan_file`` (with ``scan_python``, ``scan_yaml``, ``scan_text``) reads each file once into its share of the
:class:`~codemods.project.index.ProjectIndex`; ``prefilter`` says which files and lines can matter at all and
``trainer_classes`` finds the project's own Trainer subclasses. ``facts`` answers the questions only some runs ask.
From the merged index, ``decisions``, ``guard``, ``section_plans`` and ``moved_reads`` decide what one file
alone cannot: may a config's Trainer section migrate, and which reads of its keys move with it.

Standard library only, and nothing here imports libcst: a ``--check`` of a clean tree stops at this stage.
"""

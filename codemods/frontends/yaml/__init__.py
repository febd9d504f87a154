"""The YAML front end: Trainer sections of configs, edited as text spans located through the parser's marks.

``pipeline`` is the entry (``transform_yaml``): compose the stream (``nodes``), plan each Trainer section with
the flag rules, turn the changes into edits (``section``, ``items``, ``flow``, ``render``, ``todos``,
``strings``), splice them into the original text once (``text``) and check that everything else reads back
equal (``verify``).
"""

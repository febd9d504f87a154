"""Front ends, one folder per kind of file: each turns plans and renames into minimal text edits.

``python/`` (libcst over the statements that matter), ``yaml/`` (configs, edited as spans located through the
parser's marks), ``commands/`` (Trainer overrides on command lines), ``notebooks/`` (code cells, IPython syntax
kept byte for byte) and ``docs/`` (code examples in Markdown, reStructuredText and docstrings).
"""

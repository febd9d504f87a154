"""Which text files hold command lines this package rewrites, and which of them take ``#`` comment lines."""

from __future__ import annotations

#: Files whose command lines are rewritten (``codemods.project.index`` reads more kinds, for the index only).
COMMAND_SUFFIXES = (".sh", ".bash", ".zsh", ".md", ".rst", ".txt", ".mk")
#: (A Jenkinsfile's ``sh '...'`` steps hold command lines too; Groovy comments are ``//``, so no ``#`` TODO there.)
_COMMENTED_NAMES = ("Makefile", "GNUmakefile", "Justfile", "Dockerfile")
COMMAND_NAMES = (*_COMMENTED_NAMES, "Jenkinsfile")
#: Of those, the ones where a line starting with ``#`` is a comment, so a TODO can go above a command.
_COMMENTED = (".sh", ".bash", ".zsh", ".mk")


def _name(path: str) -> str:
    return path.replace("\\", "/").rpartition("/")[2]


def is_command_file(path: str) -> bool:
    """A shell script, a Makefile, a Dockerfile, a Jenkinsfile or a doc (Markdown, reStructuredText, plain text)."""
    return path.endswith(COMMAND_SUFFIXES) or _name(path) in COMMAND_NAMES


def takes_comments(path: str) -> bool:
    """Whether a ``# TODO`` line may go above a command (shell, make and Docker files)."""
    return path.endswith(_COMMENTED) or _name(path) in _COMMENTED_NAMES

"""What each file is, by its name alone: Python, YAML, a notebook, a document, a text file with command lines.

Every stage asks: phase one which files to read and index, the runner which front end a file goes to, the command
front end where a ``#`` TODO may go. Standard library only, importing nothing of this package.
"""

from __future__ import annotations

# --- the files the rules migrate ---------------------------------------------------------------------------------
PYTHON_SUFFIXES = (".py", ".pyi")
YAML_SUFFIXES = (".yaml", ".yml")
#: Jupyter notebooks: their code cells are migrated (``codemods.frontends.notebooks.notebook``).
NOTEBOOK_SUFFIXES = (".ipynb",)
SUFFIXES = PYTHON_SUFFIXES + YAML_SUFFIXES + NOTEBOOK_SUFFIXES
MARKDOWN_SUFFIXES = (".md",)
RST_SUFFIXES = (".rst",)


def is_doc(path: str) -> bool:
    """Whether ``path`` is a document whose code examples migrate (Markdown, reStructuredText)."""
    return path.endswith(MARKDOWN_SUFFIXES + RST_SUFFIXES)


# --- command lines -----------------------------------------------------------------------------------------------
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


# --- the text files phase one only reads -------------------------------------------------------------------------
#: Text files whose override strings count as uses (shell scripts, docs, notebooks, make/CI files).
#: (Notebooks are migrated, not only indexed: ``codemods.frontends.notebooks.notebook``; their override strings count
#: all the same.)
TEXT_SUFFIXES = (".sh", ".bash", ".zsh", ".md", ".rst", ".txt", ".cfg", ".ini", ".toml", ".json")
#: The files named, not suffixed, that hold command lines.
TEXT_NAMES = COMMAND_NAMES


def is_text_file(path: str) -> bool:
    """Text files the project index reads (their command lines are migrated: ``codemods.frontends.commands``)."""
    name = path.rpartition("/")[2]
    return path.endswith(TEXT_SUFFIXES) or name in TEXT_NAMES


#: Folder names that hold a test suite.
_TEST_FOLDERS = frozenset({"tests", "test", "testing"})


def is_test_path(path: str) -> bool:
    """Whether ``path`` is part of a test suite (a ``tests/`` tree, ``test_*.py``, ``*_test.py``, ``conftest.py``):
    code pytest runs, where a launcher that starts the script again would start the whole pytest session again."""
    parts = path.replace("\\", "/").split("/")
    name = parts[-1]
    return (
        any(part in _TEST_FOLDERS for part in parts[:-1])
        or name.startswith("test_")
        or name.endswith("_test.py")
        or name == "conftest.py"
    )

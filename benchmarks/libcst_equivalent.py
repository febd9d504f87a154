"""The benchmark's reference point: the renames table applied the way LibCST's own codemods do it.

    python -m libcst.tool codemod -x libcst_equivalent.LegacyRenamesCommand --no-format PATH   (PYTHONPATH=benchmarks)

A ``VisitorBasedCodemodCommand`` in the style of ``libcst.codemod.commands.rename.RenameCommand``: every
``Name``/``Attribute`` is matched through ``QualifiedNameProvider`` against the class rows of
``legacy_api.renames`` for one target version, renamed in place, and imports are fixed with
``AddImportsVisitor``/``RemoveImportsVisitor``. It does only the renames (no Trainer flags, enums or
properties), so it does less work than migrate-trainer.
"""

from __future__ import annotations

import argparse

import libcst as cst
from libcst.codemod import CodemodContext, VisitorBasedCodemodCommand
from libcst.codemod.visitors import AddImportsVisitor, RemoveImportsVisitor
from libcst.metadata import QualifiedNameProvider

from legacy_api.renames import NEW_ROOT, RENAMES, version_tuple


def _table(target: str) -> dict[str, str]:
    """Absolute old class name -> absolute new class name, for rows deprecated at or before ``target``."""
    table: dict[str, str] = {}
    for row in RENAMES:
        if row.kind != "class" or row.new is None:
            continue
        for root in row.roots:
            if root == "compat" or version_tuple(row.deprecated_in) <= version_tuple(target):
                table[f"{root}.{row.old}"] = f"{NEW_ROOT[root]}.{row.new}"
    return table


class LegacyRenamesCommand(VisitorBasedCodemodCommand):
    """Rename legacy Lightning classes by qualified name and fix the imports."""

    DESCRIPTION = "Rename legacy Lightning classes (the renames table) by qualified name."
    METADATA_DEPENDENCIES = (QualifiedNameProvider,)

    def __init__(self, context: CodemodContext, target: str = "1.6") -> None:
        super().__init__(context)
        self.table = _table(target)

    @staticmethod
    def add_args(arg_parser: argparse.ArgumentParser) -> None:
        arg_parser.add_argument("--target", default="1.6", help="Lightning version to migrate to")

    def _new_name(self, node: cst.CSTNode) -> tuple[str, str] | None:
        for qualified in self.get_metadata(QualifiedNameProvider, node, set()):
            new = self.table.get(qualified.name)
            if new is not None:
                return qualified.name, new
        return None

    def leave_Name(self, original_node: cst.Name, updated_node: cst.Name) -> cst.Name:
        found = self._new_name(original_node)
        if found is None:
            return updated_node
        old, new = found
        old_module, _, old_name = old.rpartition(".")
        new_module, _, new_name = new.rpartition(".")
        if original_node.value != old_name:
            return updated_node
        AddImportsVisitor.add_needed_import(self.context, new_module, new_name)
        RemoveImportsVisitor.remove_unused_import(self.context, old_module, old_name)
        return updated_node.with_changes(value=new_name)

    def leave_Attribute(self, original_node: cst.Attribute, updated_node: cst.Attribute) -> cst.BaseExpression:
        found = self._new_name(original_node)
        if found is None:
            return updated_node
        _, new = found
        new_module, _, new_name = new.rpartition(".")
        AddImportsVisitor.add_needed_import(self.context, new_module, new_name)
        RemoveImportsVisitor.remove_unused_import_by_node(self.context, original_node)
        return cst.Name(new_name)

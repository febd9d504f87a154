"""Facts about the legacy (<= 1.5) Lightning API, shared by ``compat`` and ``codemods``: standard library only.

``legacy_api.renames`` is the one table of old -> new names (and the Trainer properties, enum members, strategy
and device-flag names); ``compat`` keeps the old names alive from it, ``codemods`` rewrites them from it, and
MIGRATION.md renders it. Neither of those packages imports the other; both import this one.
"""

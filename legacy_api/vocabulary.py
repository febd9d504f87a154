"""What a file must mention for the surface rules to have anything to say, precomputed from the recorded surfaces.

The prefilter (``codemods.project.surface_uses``) decides for every Lightning file whether to load libcst and the
rules. Rebuilding the thirteen recorded surfaces to answer that costs ~100 ms a process, so the answers it needs are
derived once, here (:func:`build`), and kept in ``data/surface_vocabulary.json`` (``python
tools/reference/surface_vocabulary.py`` regenerates it; a test checks it is current):

* ``missing``: every module and module name some recorded 1.x release had that some target release lacks;
* ``hooks``: the hooks whose overrides may need a TODO (:func:`legacy_api.hooks.changed_hooks`), each with how the
  newest release declares it (parameter names, takes ``*args``);
* ``gone``: for hooks taking ``*args``, the parameters 1.x passed that the target does not
  (:data:`legacy_api.hooks.GONE_PARAMETERS`);
* ``keywords``: the keywords a Lightning class or Trainer method took in 1.x that the newest does not name;
* ``function_keywords``: a Lightning function's name -> the renamed keywords of it (``is_overridden``: ``model``);
* ``members``: the attribute names of Lightning objects some target lacks (``legacy_api.attributes``,
  ``legacy_api.removed_members``): ``self.trainer.progress_bar_dict`` in a callback file that names nothing else.

Standard library only.
"""

from __future__ import annotations

import functools
import json
from importlib import resources
from typing import Any

PATH = "data/surface_vocabulary.json"
#: The classes whose current members are too common to make a file worth parsing on their own (see ``members``).
_MAIN_CLASSES = ("pytorch_lightning.Trainer", "pytorch_lightning.LightningModule")

#: The LightningModule steps Lightning hands the batch iterator instead of a batch when their first parameter is
#: named :data:`ITERATOR`; 2.0 changed how it calls them and what the iterator yields (rule
#: ``dataloader_iter_steps``). Not derived: the recorded 2.x signatures are ``(self, *args, **kwargs)``.
ITERATOR_STEPS = frozenset({"training_step", "validation_step", "test_step", "predict_step"})
ITERATOR = "dataloader_iter"


def build() -> dict[str, Any]:
    """The vocabulary, derived from the recorded surfaces (slow: for the generator and its test)."""
    from legacy_api.attributes import RUNTIME
    from legacy_api.attributes import vocabulary as attributes
    from legacy_api.hooks import GONE_PARAMETERS, changed_hooks, current_parameters
    from legacy_api.keywords import DEFAULTED, function_keywords, removed_keywords
    from legacy_api.removed_members import by_attribute
    from legacy_api.renames import TARGET_VERSIONS
    from legacy_api.surface import RELEASES, release_for, surface

    targets = [surface(release) for release in dict.fromkeys(release_for(v) for v in TARGET_VERSIONS)]
    missing: set[str] = set()
    for release in RELEASES:
        if not release.startswith("1."):
            continue
        old = surface(release)
        paths = {*old.modules, *(f"{module}.{name}" for module, names in old.modules.items() for name in names)}
        missing.update(path for path in paths if any(t.knows(path) and not t.has(path) for t in targets))
    hooks = {
        hook: sorted([list(names), varargs] for names, varargs in current_parameters(hook))
        for hook in sorted(changed_hooks())
    }
    gone: dict[str, list[str]] = {}
    for (_, hook), names in sorted(GONE_PARAMETERS.items()):
        gone[hook] = sorted({*gone.get(hook, []), *names})
    # Names the newest Trainer and LightningModule still have (``.model``, ``.callbacks``, ``.device``) say nothing
    # alone: a file using one on an object whose class lost it names that object's kind too (``accelerator``,
    # ``Trainer``...). Likewise a member 2.x only stops you setting (``trainer.model = m``). The rules read every name.
    newest = surface(RELEASES[-1])
    common = {name for path in _MAIN_CLASSES for name in newest.members(path) or ()}
    common.update(name for names in RUNTIME.values() for name in names)
    kept = {attr for attr, rows in by_attribute().items() if any(row.use != "store" for row in rows)}
    members = sorted({*attributes(), *kept} - common)
    return {
        "missing": sorted(missing),
        "hooks": hooks,
        "gone": gone,
        "keywords": sorted(removed_keywords()),
        "function_keywords": {name: sorted(found) for name, found in sorted(function_keywords().items())},
        "members": members,
        "attributes": sorted(attributes()),
        "defaulted": sorted({cls for cls, _ in DEFAULTED}),
    }


@functools.cache
def _data() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(resources.files("legacy_api").joinpath(PATH).read_text(encoding="utf-8"))
    return data


@functools.cache
def missing() -> frozenset[str]:
    """Modules and module names of 1.x that some target release lacks."""
    return frozenset(_data()["missing"])


@functools.cache
def hooks() -> dict[str, frozenset[tuple[tuple[str, ...], bool]]]:
    """Hook name -> how the newest release declares it in each base that has it (parameter names, ``*args``)."""
    return {
        hook: frozenset((tuple(names), bool(varargs)) for names, varargs in forms)
        for hook, forms in _data()["hooks"].items()
    }


@functools.cache
def keywords() -> frozenset[str]:
    """Keywords of 1.x Lightning classes and Trainer methods that the newest release does not name."""
    return frozenset(_data()["keywords"])


@functools.cache
def function_keywords() -> dict[str, frozenset[str]]:
    """A Lightning function's name -> the keywords of it that the newest release renamed (``is_overridden``)."""
    return {name: frozenset(found) for name, found in _data()["function_keywords"].items()}


@functools.cache
def gone() -> dict[str, frozenset[str]]:
    """Hook name -> parameters 1.x passed that the target no longer passes (for hooks taking ``*args``)."""
    return {hook: frozenset(names) for hook, names in _data()["gone"].items()}


@functools.cache
def members() -> frozenset[str]:
    """Attribute names of Lightning objects (Trainer, strategy, module, callbacks, ...) that some target lacks."""
    return frozenset(_data()["members"])


@functools.cache
def attributes() -> frozenset[str]:
    """Every attribute some Lightning object kind lost (``legacy_api.attributes.vocabulary``, precomputed)."""
    return frozenset(_data()["attributes"])


@functools.cache
def defaulted() -> frozenset[str]:
    """Lightning classes whose newest ``__init__`` requires a parameter 1.x defaulted (``EarlyStopping``'s monitor)."""
    return frozenset(_data()["defaulted"])

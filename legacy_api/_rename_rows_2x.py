"""The rows of the renames table for Lightning 2.1+ (pytorch_lightning only; facts in legacy_api/LIGHTNING_2X.md).

:mod:`legacy_api.renames` joins them, with the rows up to 2.0 of :mod:`legacy_api._rename_rows`, into ``RENAMES``.
"""

from __future__ import annotations

from collections.abc import Iterator

from legacy_api._rename import PL, Rename


# --- Lightning 2.1+ (facts and sources: legacy_api/LIGHTNING_2X.md; pytorch_lightning only) ----------------------
def _precision_2x_rows() -> Iterator[Rename]:
    rule = "precision_plugins"
    bf16 = (("precision", "bf16-true"),)
    note = 'the TPU bf16 plugins are XLAPrecision(precision="bf16-true") from 2.1'
    # 2.1.0 deprecated the TPU plugins for XLAPrecisionPlugin, the one name of the XLA plugin every 2.1.x has.
    for package in ("plugins", "plugins.precision"):
        yield Rename(
            f"{package}.TPUPrecisionPlugin", f"{package}.XLAPrecisionPlugin", "class", "2.1", None, rule, (PL,)
        )
        for old in ("TPUBf16PrecisionPlugin", "XLABf16PrecisionPlugin"):
            yield Rename(
                f"{package}.{old}",
                f"{package}.XLAPrecisionPlugin",
                "class",
                "2.1",
                None,
                rule,
                (PL,),
                note,
                preset=bf16,
            )
        # The argument it no longer takes (device) goes too: precision_plugins' constructor step.
        yield Rename(
            f"{package}.FSDPMixedPrecisionPlugin", f"{package}.FSDPPrecisionPlugin", "class", "2.1", None, rule, (PL,)
        )
    xla = "plugins.precision.xla.XLAPrecisionPlugin"
    yield Rename("plugins.precision.tpu.TPUPrecisionPlugin", xla, "class", "2.1", None, rule, (PL,))
    for old in ("tpu_bf16.TPUBf16PrecisionPlugin", "xlabf16.XLABf16PrecisionPlugin"):
        yield Rename(f"plugins.precision.{old}", xla, "class", "2.1", None, rule, (PL,), note, preset=bf16)
    yield Rename(
        "plugins.precision.fsdp.FSDPMixedPrecisionPlugin",
        "plugins.precision.fsdp.FSDPPrecisionPlugin",
        "class",
        "2.1",
        None,
        rule,
        (PL,),
    )
    # 2.1.1 dropped the Plugin suffix (the old names stayed as the same classes); 2.2.0 deprecated the old names.
    for module, new_module, old, new in (
        ("precision_plugin", "precision", "PrecisionPlugin", "Precision"),
        ("amp", "amp", "MixedPrecisionPlugin", "MixedPrecision"),
        ("double", "double", "DoublePrecisionPlugin", "DoublePrecision"),
        ("half", "half", "HalfPrecisionPlugin", "HalfPrecision"),
        ("fsdp", "fsdp", "FSDPPrecisionPlugin", "FSDPPrecision"),
        ("deepspeed", "deepspeed", "DeepSpeedPrecisionPlugin", "DeepSpeedPrecision"),
        ("xla", "xla", "XLAPrecisionPlugin", "XLAPrecision"),
        ("bitsandbytes", "bitsandbytes", "BitsandbytesPrecisionPlugin", "BitsandbytesPrecision"),
        ("transformer_engine", "transformer_engine", "TransformerEnginePrecisionPlugin", "TransformerEnginePrecision"),
    ):
        for package in ("plugins", "plugins.precision"):
            yield Rename(f"{package}.{old}", f"{package}.{new}", "class", "2.2", None, rule, (PL,))
        yield Rename(
            f"plugins.precision.{module}.{old}",
            f"plugins.precision.{new_module}.{new}",
            "class",
            "2.2",
            None,
            rule,
            (PL,),
        )


def _xla_rows() -> Iterator[Rename]:
    for old, new in (
        ("accelerators.TPUAccelerator", "accelerators.XLAAccelerator"),
        ("accelerators.tpu.TPUAccelerator", "accelerators.xla.XLAAccelerator"),
        ("strategies.SingleTPUStrategy", "strategies.SingleDeviceXLAStrategy"),
        ("strategies.single_tpu.SingleTPUStrategy", "strategies.single_xla.SingleDeviceXLAStrategy"),
    ):
        yield Rename(old, new, "class", "2.1", None, "xla_names", (PL,))


#: (module, class) of the IPU and HPU integrations 2.1 moved out of Lightning.
_MOVED_OUT: tuple[tuple[str, str, str], ...] = (
    ("accelerators.ipu", "IPUAccelerator", "lightning-graphcore"),
    ("strategies.ipu", "IPUStrategy", "lightning-graphcore"),
    ("plugins.precision.ipu", "IPUPrecisionPlugin", "lightning-graphcore"),
    ("accelerators.hpu", "HPUAccelerator", "lightning-habana"),
    ("strategies.hpu_parallel", "HPUParallelStrategy", "lightning-habana"),
    ("strategies.single_hpu", "SingleHPUStrategy", "lightning-habana"),
    ("plugins.precision.hpu", "HPUPrecisionPlugin", "lightning-habana"),
)


def _moved_out_rows() -> Iterator[Rename]:
    for module, cls, package in _MOVED_OUT:
        note = f"moved to the {package} package in 2.1 (Lightning's stub raises NotImplementedError)"
        packages: tuple[str, ...] = (module.rpartition(".")[0], module)
        if module.startswith("plugins."):
            packages = ("plugins", "plugins.precision", module)
        for where in packages:
            yield Rename(f"{where}.{cls}", None, "class", "2.1", "2.1", "moved_integrations", (PL,), note)

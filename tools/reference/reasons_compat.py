"""Why ``compat`` selects differently from the recorded Lightning 1.5.10 (suite ``compat``).

Rows of ``(suite, regex on the case id, regex on the JSON of the difference, why)``; ``divergences.py`` gives a new
divergence the ``why`` of the first row of its suite that matches. Standard library only: plain data.
"""

from __future__ import annotations

#: Where Lightning 1.5 raised and compat selects something (the diff's outcome: [Lightning's, ours]).
_15_RAISED = r'"outcome": \["error", "ok"\]'
#: Where Lightning 1.5 selected something and compat raises.
_WE_RAISE = r'"outcome": \["ok", "error"\]'

REASONS: list[tuple[str, str, str, str]] = [
    (
        "compat",
        r"amp_backend=None|num_processes=None|gpus=''|accelerator=(CPU|GPU)Accelerator\(\)|accelerator=DDPPlugin\(\)"
        r"|IPUPlugin\(\)|'tpu_spawn_debug', tpu_cores"
        r"|precision='bf16', gpus=2, strategy='(ddp_sharded|ddp_sharded_spawn|fsdp)'",
        _15_RAISED,
        "Lightning 1.5 crashed here on its own bug (AttributeError on amp_backend=None, TypeError on"
        " num_processes=None, an accelerator or strategy instance in accelerator=, or IPUPlugin(); a gradient scaler"
        " with bf16 sharding): no 1.5 code ran this way, and compat runs what the flags ask for.",
    ),
    (
        "compat",
        r"auto_select_gpus=True",
        _15_RAISED,
        "Recording artifact: 1.5's auto_select_gpus allocated memory on each GPU to find free ones, which the"
        " faked CUDA machine cannot; compat keeps the requested count on the first free-looking GPUs.",
    ),
    (
        "compat",
        r"precision='(16|32|64)'",
        _15_RAISED,
        "Lightning 1.5 validated precision as a string but compared it with ints, so '16'/'32'/'64' failed ('No"
        " precision set'; IPUs refused '16'); compat reads them as the numbers they spell, as newcore does.",
    ),
    (
        "compat",
        r"precision='16-mixed'|precision=None",
        _15_RAISED,
        "A spelling 1.5 refused ('16-mixed' is Lightning 2.0's, None means the default 32): compat accepts it as"
        " newcore does, so new code runs under compat too.",
    ),
    (
        "compat",
        r"strategy='(ddp_fork|ddp_notebook|single_device|single_tpu|ipu_strategy)'"
        r"|accelerator='(DDP|ddp_find_unused_parameters_false|ddp_spawn_find_unused_parameters_false|fsdp)'",
        _15_RAISED,
        "A name 1.5 did not take there (strategies added in 1.6/1.7, or registry and upper-case names in"
        " accelerator=, which in 1.5 took only DistributedType values): 1.5 raised ValueError, compat accepts it"
        " as newcore does.",
    ),
    (
        "compat",
        r"accelerator='(gpu|tpu|ipu|cuda|auto|cpu)'|devices=",
        _15_RAISED,
        "New-API spelling that 1.5 refused (a named accelerator without its gpus=/tpu_cores=/ipus= count, devices="
        " without an accelerator or as a string for the CPU, accelerator='cuda'): compat accepts it as newcore"
        " does, taking every device of the kind when no count is given.",
    ),
    (
        "compat",
        r"accelerator='tpu_spawn'",
        _WE_RAISE,
        "1.5 took accelerator='tpu_spawn' without TPU cores and silently ran plain DDP on the CPU or GPUs;"
        " compat maps it only together with tpu_cores= and refuses it otherwise.",
    ),
    (
        "compat",
        r"tpu_spawn_debug",
        _WE_RAISE,
        "1.5 attached a CPU or GPU accelerator to the XLA spawn strategy, which cannot train there; compat"
        " refuses it, as newcore does.",
    ),
    (
        "compat",
        r"strategy='(dp|ddp2)', accelerator='cpu'|DataParallelPlugin\(\)|DDP2Plugin\(\)",
        "",
        "DataParallel/DDP2 on the CPU: 1.5 kept them when accelerator='cpu' was explicit (or an instance was"
        " passed), although DataParallel then runs the module unreplicated and DDP2 has no GPUs to split;"
        " newcore has neither on the CPU. compat runs the names as 'ddp' with a warning, as Lightning 1.6 did,"
        " and refuses instances, which it does not swap for another class.",
    ),
    (
        "compat",
        r"SingleTPUPlugin\(1\)|TPUSpawnPlugin\(\)",
        "",
        "A TPU strategy instance without tpu_cores=: 1.5 attached the CPU accelerator (one core for"
        " TPUSpawnPlugin); compat, like newcore, implies accelerator='tpu' and uses the TPU cores.",
    ),
    (
        "compat",
        r"DDPPlugin\(parallel_devices=\[device\('cuda",
        "",
        "A strategy holding CUDA devices without gpus=: 1.5 attached the CPU accelerator to it; compat takes the"
        " accelerator from the devices, as Lightning 1.6 did.",
    ),
    (
        "compat",
        r"horovod",
        r"num_devices",
        "Under horovodrun compat (like newcore) gives each process its own device, read from horovod at setup;"
        " 1.5 listed every local device on the strategy. The processes and devices used are the same.",
    ),
    (
        "compat",
        r"horovod",
        _WE_RAISE,
        "Horovod takes its process count from horovodrun: compat, like newcore, refuses an explicit count above"
        " one (num_processes=2, or gpus=2 with a HorovodPlugin instance), which 1.5 ignored or used silently.",
    ),
    (
        "compat",
        r"cluster: .*(strategy='(ddp_spawn|ddp_sharded_spawn|ddp_spawn_find_unused_parameters_false)'"
        r"|strategy=None \| .*(lightning|lsf))",
        "",
        "A scheduler already started one process per device (LSF, LOCAL_RANK set; for the sharded and"
        " find_unused variants also SLURM, TorchElastic, Kubeflow): 1.5 kept the spawn strategy and each process"
        " would spawn more; compat, like Lightning 1.6, runs the script-launched variant ('ddp', 'ddp_sharded').",
    ),
    (
        "compat",
        r"slurm",
        r"cluster_environment",
        "1.5 read SLURM only for DDP-family strategies; compat, like Lightning 1.6, reports SLURMEnvironment for a"
        " single device or DataParallel when SLURM runs one task per device (process counts are the same).",
    ),
    (
        "compat",
        r"interactive",
        _WE_RAISE,
        "1.5 allowed spawn strategies (and one-process DDP) in notebooks, where the new processes cannot import"
        " the notebook's code and training fails later; compat refuses them when the Trainer is built, as"
        " Lightning 1.6 did (#12008).",
    ),
    (
        "compat",
        r"gpus=2, (tpu_cores|ipus)=",
        "",
        "Two device flags: 1.5 took the device from gpus= but the strategy from the other flag (plain DDP from"
        " the TPU spawn type of tpu_cores=8, a single GPU for ipus=); compat runs gpus= alone: ddp_spawn on the"
        " GPUs asked for, with a warning for each flag.",
    ),
    (
        "compat",
        r"gpus=2, (num_processes=3, )?accelerator='cpu'",
        "",
        "accelerator='cpu' with gpus= given: 1.5 cut the CPU processes to one because gpus was set; compat runs"
        " the CPU processes asked for (num_processes= or devices=).",
    ),
    (
        "compat",
        r"ipus=0",
        "",
        "ipus=0: 1.5 chose the IPU strategy with no IPUs (it tested `ipus is not None`); compat reads 0 as 'no"
        " IPUs', like gpus=0.",
    ),
    (
        "compat",
        r"invalid: |num_nodes=0|devices=-1",
        _WE_RAISE,
        "Lightning 1.5 accepted meaningless values (an empty or numeric name, a count of 0 or below, an unknown"
        " amp_backend, device strings that are not numbers) and ran on one CPU or IPU; compat refuses them with a"
        " message, as newcore does.",
    ),
    (
        "compat",
        r"devices='2' \| cpu\+ipu",
        "",
        "1.5 handed a digit string to the IPU strategy unparsed and ran one replica; compat parses devices='2' as"
        " two IPUs, as newcore parses digit strings for every accelerator.",
    ),
    (
        "compat",
        r"plugins=\[PrecisionPlugin\(\)\], tpu_cores",
        _WE_RAISE,
        "A non-TPU precision plugin on TPUs: 1.5 used it; compat refuses it, as newcore and Lightning 1.6"
        " (ValueError) do.",
    ),
    (
        "compat",
        r"precision=64, .*deepspeed",
        _WE_RAISE,
        "DeepSpeed trains in 16, bf16 or 32 bits: 1.5 built a precision plugin for 64 that DeepSpeed cannot"
        " honour; compat refuses it when the Trainer is built, as newcore does.",
    ),
]

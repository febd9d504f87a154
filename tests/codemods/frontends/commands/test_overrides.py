"""Trainer overrides written as command lines (``codemods.frontends.commands``): one row per command shape, before -> after.

Each row is a small project (the file under test plus the configs and requirements beside it), indexed the way
a run indexes it, so the Hydra prefix of a new key is decided from the configs as it is in a real run.
"""

from __future__ import annotations

import pytest

from codemods.frontends.commands.front import python_strings, transform_commands
from codemods.model import Options, Outcome
from codemods.project.index import ProjectIndex
from codemods.project.scan_file import index_text
from codemods.runner import transform_text

MIGRATED = {"conf/trainer/default.yaml": "_target_: pytorch_lightning.Trainer\ngpus: 0\nmax_epochs: 3\n"}
NO_GPUS = {"conf/trainer/default.yaml": "_target_: pytorch_lightning.Trainer\nmax_epochs: 3\n"}
HYDRA_11 = {"requirements.txt": "hydra-core>=1.1.0\n"}
HYDRA_10 = {"requirements.txt": "hydra-core==1.0.6\n"}
ARGPARSE = {"train.py": "parser = Trainer.add_argparse_args(parser)\n"}
DDP = {"conf/config.yaml": "trainer:\n  accelerator: ddp\n  gpus: 2\n"}
DDP_READ = {**DDP, "src/app.py": "ddp = cfg.trainer.accelerator == 'ddp'\n"}


def _run(path: str, text: str, project: dict[str, str], target: str = "2.0") -> Outcome:
    files = {**project, path: text}
    index = ProjectIndex.merge(index_text(body, name) for name, body in sorted(files.items()))
    options = Options(target=target, project=index)
    if path.endswith(".py"):
        return python_strings(Outcome(text, False), options, path)
    return transform_commands(text, options, path)


TODO = "# TODO(migrate-trainer): "


@pytest.mark.parametrize(
    ("path", "before", "project", "after"),
    [
        pytest.param(
            "run.sh",
            "python train.py trainer.gpus=2 trainer.max_epochs=10\n",
            MIGRATED,
            "python train.py trainer.accelerator=gpu trainer.devices=2 trainer.max_epochs=10\n",
            id="hydra override of a key the migrated config renames",
        ),
        pytest.param(
            "run.sh",
            "python train.py +trainer.tpu_cores=8\n",
            MIGRATED,
            "python train.py trainer.accelerator=tpu trainer.devices=8\n",
            id="+key the migrated config now has loses its +",
        ),
        pytest.param(
            "run.sh",
            "python train.py +trainer.gpus=2\n",
            NO_GPUS,
            "python train.py +trainer.accelerator=gpu +trainer.devices=2\n",
            id="+key the config never had keeps its +",
        ),
        pytest.param(
            "run.sh",
            "python train.py ++trainer.gpus=1\n",
            {},
            "python train.py ++trainer.accelerator=gpu ++trainer.devices=1\n",
            id="++ stays ++",
        ),
        pytest.param(
            "run.sh",
            "python train.py trainer.gpus=2\n",
            HYDRA_11,
            "python train.py ++trainer.accelerator=gpu ++trainer.devices=2\n",
            id="no config seen, Hydra >= 1.1: ++",
        ),
        pytest.param(
            "run.sh",
            "python train.py trainer.gpus=2\n",
            {**HYDRA_11, "docs/setup.md": 'install_requires=["hydra-core>=1.0.6"]\n'},
            "python train.py ++trainer.accelerator=gpu ++trainer.devices=2\n",
            id="a pin quoted in a doc is no requirement",
        ),
        pytest.param(
            "run.sh",
            "python train.py trainer.gpus=2\n",
            HYDRA_10,
            f"{TODO}trainer.accelerator: cannot tell whether the config has it (add it with +trainer.accelerator= "
            "or override it with trainer.accelerator=); Hydra >= 1.1 would take ++trainer.accelerator= "
            "[overrides]\npython train.py trainer.gpus=2\n",
            id="no config seen, Hydra 1.0: a TODO",
        ),
        pytest.param(
            "run.sh",
            "python train.py trainer.gpus=0\n",
            MIGRATED,
            "python train.py trainer.accelerator=cpu trainer.devices=1\n",
            id="gpus=0 where the command sets every device flag the config has",
        ),
        pytest.param(
            "run.sh",
            "  python train.py trainer.gpus=4 +trainer.strategy='ddp' \\\n    trainer.precision=16\n",
            MIGRATED,
            "  python train.py trainer.accelerator=gpu trainer.devices=4 +trainer.strategy='ddp' \\\n"
            "    trainer.precision=16-mixed\n",
            id="continuation lines are one command; quoting and spacing stay",
        ),
        pytest.param(
            "run.sh",
            "python train.py trainer.gpus=4 +trainer.accelerator=ddp\n",
            MIGRATED,
            "python train.py trainer.devices=4 trainer.accelerator=gpu +trainer.strategy=ddp\n",
            id="accelerator=ddp becomes a strategy, in the dropped key's place",
        ),
        pytest.param(
            "run.sh",
            "python main.py fit --trainer.gpus 2 --trainer.max_epochs=3\n",
            {},
            "python main.py fit --trainer.accelerator gpu --trainer.devices 2 --trainer.max_epochs=3\n",
            id="LightningCLI, blank separator",
        ),
        pytest.param(
            "run.sh",
            "python main.py fit --trainer.gpus=2\n",
            {},
            "python main.py fit --trainer.accelerator=gpu --trainer.devices=2\n",
            id="LightningCLI, = separator",
        ),
        pytest.param(
            "run.sh",
            "python train.py -m trainer.gpus=1,2\n",
            MIGRATED,
            f"{TODO}trainer.gpus=1,2 is a sweep (values separated by commas run one job each): left as it is, "
            "rewrite it by hand [overrides]\n"
            "python train.py -m trainer.gpus=1,2\n",
            id="a sweep gets a TODO, never a rewrite",
        ),
        pytest.param(
            "Makefile",
            "train:\n\tpython train.py trainer.gpus=$(NGPU)\n",
            MIGRATED,
            f"train:\n\t{TODO}trainer.gpus=$(NGPU) is a shell variable or substitution: left as it is, "
            "rewrite it by hand [overrides]\n"
            "\tpython train.py trainer.gpus=$(NGPU)\n",
            id="a make variable is not a value",
        ),
        pytest.param(
            "README.md",
            "Run `python train.py trainer.gpus=1`:\n\n```bash\npython train.py trainer.gpus=[0,1]\n```\n",
            MIGRATED,
            "Run `python train.py trainer.accelerator=gpu trainer.devices=1`:\n\n"
            "```bash\npython train.py trainer.accelerator=gpu trainer.devices=[0,1]\n```\n",
            id="Markdown inline code and code blocks",
        ),
        pytest.param(
            "README.md",
            "python train.py trainer.gpus=$NGPU\n",
            MIGRATED,
            "python train.py trainer.gpus=$NGPU\n",
            id="Markdown takes no comment: a finding only",
        ),
        pytest.param(
            "Jenkinsfile",
            "stage('MNIST') {\n  steps {\n    sh 'python train.py trainer.gpus=2 \\\n    trainer.max_epochs=1'\n  }\n}\n",
            MIGRATED,
            "stage('MNIST') {\n  steps {\n    sh 'python train.py trainer.accelerator=gpu trainer.devices=2 \\\n"
            "    trainer.max_epochs=1'\n  }\n}\n",
            id="a Jenkinsfile's sh steps",
        ),
        pytest.param(
            "Jenkinsfile",
            "sh 'python train.py trainer.gpus=$NGPU'\n",
            MIGRATED,
            "sh 'python train.py trainer.gpus=$NGPU'\n",
            id="a Jenkinsfile takes no # comment (Groovy): a finding only",
        ),
        pytest.param(
            "run.sh",
            "python train.py --gpus 2\n",
            ARGPARSE,
            "python train.py --accelerator gpu --devices 2\n",
            id="add_argparse_args options at 1.9",
        ),
        pytest.param(
            "run.sh",
            "python train.py --gpus 0,1,2,3\n",
            ARGPARSE,
            "python train.py --accelerator gpu --devices 0,1,2,3\n",
            id="--gpus 0,1,2,3 is one GPU list to 1.5's parser, never a sweep",
        ),
        pytest.param(
            "README.md",
            "Pass the --gpus argument a list (``--gpus 0,3``)\n",
            ARGPARSE,
            "Pass the --gpus argument a list (``--accelerator gpu --devices 0,3``)\n",
            id="--gpus followed by a word 1.5's parser refused is prose",
        ),
        pytest.param(
            "run.sh",
            "python train.py --gpus 2\n",
            {},
            "python train.py --gpus 2\n",
            id="--gpus of a parser that is not add_argparse_args' stays",
        ),
        pytest.param(
            "run.sh",
            "python train.py trainer.max_epochs=3 model.gpus=2\n",
            MIGRATED,
            "python train.py trainer.max_epochs=3 model.gpus=2\n",
            id="nothing to migrate",
        ),
        pytest.param(
            "run.sh",
            "python train.py trainer.gpus=2\n",
            {**MIGRATED, "src/app.py": "n = cfg['trainer']['gpus']\n"},
            "python train.py +trainer.accelerator=gpu +trainer.devices=2\n",
            id="a key Python reads (in a way that cannot move) stays in the config, with its TODO; the command, which "
            "2.x refuses as it is, migrates",
        ),
        pytest.param(
            "run.sh",
            "python train.py trainer.gpus=1\n",
            DDP,
            "python train.py trainer.accelerator=gpu trainer.devices=1\n",
            id="accelerator: ddp that migrates with the command: the command may set accelerator",
        ),
        pytest.param(
            "run.sh",
            "python train.py trainer.devices=1 trainer.max_epochs=2\n",
            DDP,
            "python train.py trainer.max_epochs=2\n",
            id="devices= that the config's gpus: 2 beat in 1.5 goes (the config's devices: 2 applies, as its gpus did)",
        ),
        pytest.param(
            "run.sh",
            "python train.py trainer.devices=1\n",
            {**DDP, "conf/other.yaml": "trainer:\n  accelerator: gpu\n  devices: 4\n"},
            f"{TODO}trainer.devices: 1.5 ignored trainer.devices next to a config's gpus (which won), and once that "
            "config migrates its count is devices:, which this command would then override; migrate them together by "
            "hand [overrides]\npython train.py trainer.devices=1\n",
            id="devices= that one config's gpus: 2 beat and another's devices: 4 did not: a TODO",
        ),
        pytest.param(
            "run.sh",
            "python train.py trainer.devices=1\n",
            MIGRATED,
            "python train.py trainer.devices=1\n",
            id="devices= next to a config's gpus: 0, which chose nothing",
        ),
        pytest.param(
            "run.sh",
            "python train.py trainer.gpus=1\n",
            DDP_READ,
            f"{TODO}trainer.gpus=1: its new keys would override the legacy trainer.accelerator that "
            "conf/config.yaml keeps; left as it is, migrate them together by hand [overrides]\n"
            "python train.py trainer.gpus=1\n",
            id="accelerator: ddp held by a read: the command would override DDP away, so it stays",
        ),
        pytest.param(
            "run.sh",
            "python train.py trainer.gpus=1\n",
            {**DDP_READ, **HYDRA_11, "conf/config.yaml": "trainer:\n  max_epochs: 1\n---\n" + DDP["conf/config.yaml"]},
            f"{TODO}trainer.gpus=1: its new keys would override the legacy trainer.accelerator that "
            "conf/config.yaml keeps; left as it is, migrate them together by hand [overrides]\n"
            "python train.py trainer.gpus=1\n",
            id="a held accelerator: ddp in a later document of the stream counts too",
        ),
        pytest.param(
            "run.sh",
            "python train.py trainer.gpus=1\n",
            {"conf/trainer/ddp.yaml": "accelerator: ddp\ngpus: 2\n", "src/app.py": DDP_READ["src/app.py"]},
            f"{TODO}trainer.gpus=1: its new keys would override the legacy trainer.accelerator that "
            "conf/trainer/ddp.yaml keeps; left as it is, migrate them together by hand [overrides]\n"
            "python train.py trainer.gpus=1\n",
            id="a trainer group file that never spells trainer is a section too",
        ),
        pytest.param(
            "test_cli.py",
            'run(["train.py", "++trainer.max_epochs=1", "++trainer.gpus=1"])\n',
            {},
            'run(["train.py", "++trainer.max_epochs=1", "++trainer.accelerator=gpu", "++trainer.devices=1"])\n',
            id="Python: an argument of a list becomes two",
        ),
        pytest.param(
            "test_cli.py",
            "os.system('python train.py ++trainer.gpus=1')\n",
            {},
            "os.system('python train.py ++trainer.accelerator=gpu ++trainer.devices=1')\n",
            id="Python: a command in one string",
        ),
        pytest.param(
            "test_cli.py",
            'arg = "++trainer.gpus=1"\n',
            {},
            'arg = "++trainer.gpus=1"\n',
            id="Python: one argument that is no list item cannot become two",
        ),
        pytest.param(
            "train.py",
            '"""Run:\n    python train.py \\\n        trainer.gpus=2 \\\n        trainer.max_epochs=1\n"""\n',
            MIGRATED,
            '"""Run:\n    python train.py \\\n        trainer.accelerator=gpu trainer.devices=2 \\\n'
            '        trainer.max_epochs=1\n"""\n',
            id="Python: a docstring's command continued with backslashes is rewritten in place",
        ),
        pytest.param(
            "train.py",
            '"""Run:\\tpython train.py trainer.gpus=2\n"""\n',
            MIGRATED,
            '"""Run:\\tpython train.py trainer.gpus=2\n"""\n',
            id="Python: any other escape leaves the string as it is",
        ),
        pytest.param(
            "run.sh",
            "python main.py fit --trainer.gpus 2,3 --trainer.max_epochs 3\n",
            {},
            "python main.py fit --trainer.accelerator gpu --trainer.devices 2,3 --trainer.max_epochs 3\n",
            id="LightningCLI: indices with commas are a device list (jsonargparse has no sweeps)",
        ),
        pytest.param(
            "run.sh",
            "python train.py trainer.gpus=2,3\n",
            {},
            TODO + "trainer.gpus=2,3 is a sweep (values separated by commas run one job each): left as it is, "
            "rewrite it by hand [overrides]\npython train.py trainer.gpus=2,3\n",
            id="Hydra: the same text is a sweep and stays, with a TODO",
        ),
        pytest.param(
            "run.sh",
            "# python train.py trainer.gpus=2\n",
            MIGRATED,
            "# python train.py trainer.accelerator=gpu trainer.devices=2\n",
            id="a commented-out command is rewritten where the rewrite is exact",
        ),
        pytest.param(
            "run.sh",
            "# python train.py trainer.gpus=$N\n#python train.py trainer.gpus=0\n",
            {},
            "# python train.py trainer.gpus=$N\n#python train.py trainer.gpus=0\n",
            id="a commented-out command that would need a TODO gets none",
        ),
    ],
)
def test_commands(path: str, before: str, project: dict[str, str], after: str) -> None:
    target = "1.9" if "--gpus" in before else "2.0"
    outcome = _run(path, before, project, target)
    assert outcome.source == after
    # as a second run meets the project: its configs migrated by the first
    again = _run(path, outcome.source, _configs_migrated(path, before, project, target), target)
    assert again.source == outcome.source, "a second run changes nothing"


def _configs_migrated(path: str, text: str, project: dict[str, str], target: str) -> dict[str, str]:
    files = {**project, path: text}
    index = ProjectIndex.merge(index_text(body, name) for name, body in sorted(files.items()))
    options = Options(target=target, project=index)
    return {
        name: transform_text(body, name, options).source if name.endswith((".yaml", ".yml")) else body
        for name, body in project.items()
    }


def test_a_commented_out_command_is_reported_not_marked() -> None:
    outcome = _run("run.sh", "# python train.py trainer.gpus=$N\n", MIGRATED)
    assert [(f.line, f.kind) for f in outcome.findings] == [(1, "report")]


def test_findings_where_no_comment_fits() -> None:
    outcome = _run("README.md", "python train.py trainer.gpus=$NGPU\n", MIGRATED)
    assert [(f.line, f.kind) for f in outcome.findings] == [(1, "todo")]


@pytest.mark.parametrize(
    "command",
    [
        pytest.param("python train.py --gpus 2\n", id="a rewrite it would make at 1.9"),
        pytest.param("python train.py --gpus 0 --precision 16\n", id="a TODO it would leave at 1.9"),
        pytest.param("python train.py --gpus 0 --accelerator gpu --accelerator gpu\n", id="a key set twice"),
    ],
)
def test_add_argparse_args_is_gone_in_2_0(command: str) -> None:
    """The command stays and is reported: the script's ``Trainer.add_argparse_args`` call has the TODO, and what
    ``--gpus 0`` means now is up to the options that replace it (solo-learn turns args.gpus into a list)."""
    outcome = _run("run.sh", command, ARGPARSE, "2.0")
    assert not outcome.changed
    assert [(f.kind, "add_argparse_args was removed in 2.0" in f.message) for f in outcome.findings] == [
        ("report", True)
    ]


def test_target_before_the_deprecation_changes_nothing() -> None:
    assert _run("run.sh", "python train.py trainer.gpus=2\n", MIGRATED, "1.6").changed is False


def test_an_option_of_the_projects_own_parser_is_left_to_its_code() -> None:
    """lightning-bolts' docs pass ``--gpus`` to scripts whose parser adds ``--gpus`` itself: nothing to migrate in
    the command (the code that reads ``args.gpus`` is), so a report and no TODO."""
    own = {"train.py": 'parser = Trainer.add_argparse_args(parser)\nparser.add_argument("--gpus", type=int)\n'}
    outcome = _run("docs/use.rst", "python train.py --gpus 2\n", own, "2.0")
    assert not outcome.changed
    assert [(f.kind, "own parser" in f.message) for f in outcome.findings] == [("report", True)]

import subprocess


def test_fast_dev_run():
    command = ["python", "train.py", "++trainer.fast_dev_run=true", "++trainer.gpus=1"]
    subprocess.run(command, check=True)

import subprocess

for gpu, epochs in [(0, 5), (1, 10)]:
    # one command added up from several strings: the script the first names runs the overrides of the others
    command = "python train.py" + f" trainer.max_epochs={epochs}" + " trainer.gpus=[GPU]"
    subprocess.run(command.replace("GPU", str(gpu)).split(), check=True)

from pkg.trainers import BaseTrainer, ClusterTrainer


def main():
    local = BaseTrainer(accelerator="gpu", devices=2, max_epochs=3)
    # TODO(migrate-trainer): ClusterTrainer.__init__ (pkg/trainers.py:9) handles num_nodes itself, so gpus= here is left as it is: migrate the class first; once its __init__ names none of them, a new run migrates this call [trainer_subclasses]
    cluster = ClusterTrainer(gpus=8, num_nodes=4)
    return local, cluster

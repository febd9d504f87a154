from pkg.trainers import BaseTrainer, ClusterTrainer


def main():
    local = BaseTrainer(gpus=2, max_epochs=3)
    cluster = ClusterTrainer(gpus=8, num_nodes=4)
    return local, cluster

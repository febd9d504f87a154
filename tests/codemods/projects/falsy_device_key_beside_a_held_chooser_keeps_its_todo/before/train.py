import hydra
from hydra.utils import instantiate


@hydra.main(config_path="configs", config_name="config")
def main(config):
    # tpu_cores is held as written (read here), and it chose the TPU over gpus: 0
    print("cores", config.trainer.tpu_cores)
    trainer = instantiate(config.trainer)
    trainer.fit(model=None)


if __name__ == "__main__":
    main()

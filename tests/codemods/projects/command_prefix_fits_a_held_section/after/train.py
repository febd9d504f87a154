import hydra
from hydra.utils import instantiate


@hydra.main(config_path="conf", config_name="config")
def main(cfg):
    if cfg.trainer.strategy is None:
        print("one process")
    trainer = instantiate(cfg.trainer)
    trainer.fit(None)


if __name__ == "__main__":
    main()

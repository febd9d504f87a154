import hydra


@hydra.main(config_path="conf", config_name="config")
def main(cfg):
    return hydra.utils.instantiate(cfg.trainer)


if __name__ == "__main__":
    main()

import hydra


@hydra.main(config_path="configs", config_name="config")
def main(config):
    return hydra.utils.instantiate(config.trainer)


if __name__ == "__main__":
    main()

import hydra

from helpers import DECODER, TAGGER, build


@hydra.main(config_path="conf", config_name="config")
def main(cfg):
    build(cfg, TAGGER)
    build(cfg, DECODER)


if __name__ == "__main__":
    main()

import hydra
from hydra.utils import instantiate


@hydra.main(config_path="configs", config_name="config")
def main(config):
    # the read holds resume_from_checkpoint as written; it chooses no device, so gpus: 0 still means the CPU
    trainer = instantiate(config.trainer)
    trainer.fit(model=None, ckpt_path=config.trainer.resume_from_checkpoint)


if __name__ == "__main__":
    main()

from pkg.mid import Mid


class Model(Mid):
    # TODO(migrate-trainer): Lightning 2.6.6 never calls LightningModule.validation_epoch_end (removed in 2.0): use on_validation_epoch_end(self), which gets no outputs: append what validation_step returns (detach the tensors you keep) to a list the module owns, read it there and clear it; not rewritten: its validation_step is the project's Mid's, whose outputs this rewrite cannot see [removed_hooks]
    def validation_epoch_end(self, outputs):
        print(outputs)

    # TODO(migrate-trainer): Lightning 2.6.6 never calls LightningModule.on_epoch_end (removed in 1.8): use on_train_epoch_end, on_validation_epoch_end and on_test_epoch_end (it ran around every epoch of each) [removed_hooks]
    def on_epoch_end(self):
        pass

    def configure_optimizers(self):
        return None


class Unrelated:
    def validation_epoch_end(self, outputs):
        print(outputs)

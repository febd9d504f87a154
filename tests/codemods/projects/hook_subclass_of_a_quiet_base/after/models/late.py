from models.base import Collecting


class Late(Collecting):
    # TODO(migrate-trainer): Lightning 2.0.9 never calls LightningModule.validation_epoch_end (removed in 2.0): use on_validation_epoch_end(self), which gets no outputs: append what validation_step returns (detach the tensors you keep) to a list the module owns, read it there and clear it; not rewritten: the class derives from the project's Collecting, which has its own validation_epoch_end or on_validation_epoch_end [removed_hooks]
    def validation_epoch_end(self, outputs):
        self.log("late", 1.0)

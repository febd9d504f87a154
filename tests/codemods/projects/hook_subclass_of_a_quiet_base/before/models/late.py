from models.base import Collecting


class Late(Collecting):
    def validation_epoch_end(self, outputs):
        self.log("late", 1.0)

from pkg.mid import Mid


class Model(Mid):
    def validation_epoch_end(self, outputs):
        print(outputs)

    def on_epoch_end(self):
        pass

    def configure_optimizers(self):
        return None


class Unrelated:
    def validation_epoch_end(self, outputs):
        print(outputs)

from shapes.datamodules import Built, Shaped


class Narrow(Shaped):
    def __init__(self, width=2):
        super().__init__()
        self.width = width


class Square(Built):
    def __init__(self):
        self.side = 4

from pkg.base import Base


class Mid(Base):
    """Never says Lightning, and overrides nothing."""

"""newcore."""

"""A legacy (Lightning 1.4/1.5) training project used to demonstrate migrate-trainer."""

"""Jupyter notebooks: their code cells go through the Python front end, every other byte stays as it was."""

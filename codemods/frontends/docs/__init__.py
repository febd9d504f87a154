"""Code examples in documents and docstrings: they go through the Python front end, the prose stays as it was."""

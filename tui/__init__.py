"""skilldeck's terminal face: the Textual app (app.py, widgets/, screens/) and the CLI (cli*.py)."""

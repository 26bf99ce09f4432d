"""skilldeck's terminal face: the CLI now, the Textual app next."""

"""Small helpers every room shares: bounded reads of files we did not write (safeio), parse bounds
(bounds), YAML and JSON documents (yamlload, jsondoc), text made safe for a terminal (sanitize),
wildcards matched in linear time (globmatch), shell quoting (shellquote), skilldeck's state folder.
Imports nothing else of the engine."""

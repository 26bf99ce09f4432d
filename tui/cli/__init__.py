"""The `skilldeck` command: parsing (main, args) and one module per subcommand family, drawing with
rich (render). Uses only the engine's face (`engine`), never the app's widgets."""

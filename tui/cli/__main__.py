"""`python -m tui.cli`: the skilldeck command, as installed."""

from .main import main

raise SystemExit(main())

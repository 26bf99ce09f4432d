"""The reload loop: watchdog watches on every tier (watch, watchplan, watchdeep, watchsince), a
reload that redoes only what changed (rebuild) and the diff it reports (diff).
May import catalog/ (and base/)."""

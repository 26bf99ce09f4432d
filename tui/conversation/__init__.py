"""The conversation tab: its pane, the answers drawn in it, the composer and the run session it owns."""

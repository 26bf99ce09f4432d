"""What the model is told about skills: the listing's text and Claude Code's budget (build), the
update it sends after a file is touched (touch), and Claude Code's own bundled skills as a
comparison recorded them (claude_own). May import base/, catalog/ and llm/ (context windows)."""

"""Every program that reads skill folders, one "host" each: Claude Code, Codex CLI, Gemini CLI,
OpenCode and Copilot CLI, behind one interface (host.SkillHost: where it looks, how it reads a
file, how it settles a name clash, what it sends the model) and one result (model.HostView).

A host is not a subagent: Claude Code's `agent:` field and subagent types live in runner/.
Claude Code's host (claude_code) wraps catalog/ and listing/, where its rules are built; the
others are whole here, one module each, as their pinned binaries behave (docs/agents.md).
May import base/, catalog/ and listing/; nothing below imports hosts/.
"""

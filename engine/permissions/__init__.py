"""Deciding a tool call as Claude Code does: the settings files and their rules (settings, rules,
ruleindex, settings_edit), workspace trust, where a path really leads (pathreach), a Bash line
judged command by command (bash/), RuleBook (rules and paths) and Permissions (decide: modes,
trust, the Skill tool), a model's tool input checked (toolcheck). May import base/ and catalog/."""

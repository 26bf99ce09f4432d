"""A run: a skill made ready to send (invoke, expand, expanding, argwords, mentions, shell for its
`!` commands), the agent loop (loop, with its parts: skillcalls, forks, verdicts; events for its
caller; subagents for `agent:`), the tools a model may call (tools/) and the transcript
(conversation). May import base/, catalog/, listing/, llm/ and permissions/."""

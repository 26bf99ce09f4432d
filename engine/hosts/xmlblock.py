"""The `<available_skills>` element that Gemini CLI, OpenCode and Copilot CLI send: one `<skill>`
per entry with its name, description and location, laid out and escaped as each host does."""

from __future__ import annotations

from dataclasses import dataclass

_XML = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", "'": "&apos;", '"': "&quot;"})


def xml_escape(text: str) -> str:
    return text.translate(_XML)


@dataclass(frozen=True)
class Layout:
    indent: str  # before `<skill>`; its children get two spaces more
    escape: bool  # names, descriptions and locations XML-escaped

    def element(self, name: str, description: str, location: str) -> str:
        """One `<skill>` element with its line break."""
        fix = xml_escape if self.escape else str
        inner = self.indent + "  "
        return (
            f"{self.indent}<skill>\n{inner}<name>{fix(name)}</name>\n"
            f"{inner}<description>{fix(description)}</description>\n"
            f"{inner}<location>{fix(location)}</location>\n{self.indent}</skill>\n"
        )


def available_skills(elements: list[str], tail: str = "") -> str:
    """The whole element: `elements` each ending in a line break, then `tail` (Copilot CLI's line of
    names that did not fit), then the end tag."""
    return "<available_skills>\n" + "".join(elements) + tail + "</available_skills>"

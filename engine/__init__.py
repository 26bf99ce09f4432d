"""skilldeck's engine: the headless core. It never imports textual or tui.

The public face is this module: build a `Workspace` from `Locations`, `load()` it into a
`Catalog`, and ask the catalog (or `build_listing`) what Claude Code would see.
"""

from .catalog import Catalog
from .conversation import Message, Transcript, parse_fork_result
from .diagnostics import CODES
from .diff import CatalogDiff
from .expand import ExpansionError
from .invoke import InvocationError, Prompt
from .listing import OWN_SKILLS_NOTE, Budget, Foreign, Listing, ListingEntry, build_listing
from .locations import Locations
from .model import Diagnostic, LoadedFrom, LoadStats, Severity, Shadowed, Skill, Source, SourceKind
from .permissions import Decision, Permissions, call_from_rule
from .safeio import read_regular
from .sanitize import json_printable, printable
from .settings import PlacedRule, Settings, read_settings
from .settings_edit import EDITABLE_SCOPES, SettingsEditError
from .skilltree import skill_files
from .spec import with_missing_skill_md
from .trust import Trust
from .watch import WatchHandle
from .why import Why, trace_why
from .why.find import close_names
from .workspace import Workspace, load_paths

__all__ = [
    "CODES",
    "EDITABLE_SCOPES",
    "OWN_SKILLS_NOTE",
    "Budget",
    "Catalog",
    "CatalogDiff",
    "Decision",
    "Diagnostic",
    "ExpansionError",
    "Foreign",
    "InvocationError",
    "Listing",
    "ListingEntry",
    "LoadStats",
    "LoadedFrom",
    "Locations",
    "Message",
    "Permissions",
    "PlacedRule",
    "Prompt",
    "Settings",
    "SettingsEditError",
    "Severity",
    "Shadowed",
    "Skill",
    "Source",
    "SourceKind",
    "Transcript",
    "Trust",
    "WatchHandle",
    "Why",
    "Workspace",
    "build_listing",
    "call_from_rule",
    "close_names",
    "json_printable",
    "load_paths",
    "parse_fork_result",
    "printable",
    "read_regular",
    "read_settings",
    "skill_files",
    "trace_why",
    "with_missing_skill_md",
]

"""Bash lines and file paths a hostile model would send: every one is denied or asked.

Each case is a reproduction from the security review (issue 14): with the rules shown, the old
engine allowed the call. Real settings files, real symlinks, a real home folder.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine import Permissions, read_settings
from engine.permissions.bash import invocations, parse
from tests.conftest import Tree, write


def _permissions(tree: Tree, scope: str = "local", **rules: list[str]) -> Permissions:
    target = {
        "local": tree.project / ".claude" / "settings.local.json",
        "managed": tree.managed / "managed-settings.json",
        "user": tree.user / "settings.json",
    }[scope]
    write(target, json.dumps({"permissions": rules}))
    return Permissions(read_settings(tree.locations()), tree.project, home=tree.root / "home")


@pytest.fixture
def world(tree: Tree) -> Tree:
    """A project with a symlink out of it (docs -> outside, src/link -> outside) and a home
    holding a private key and a .bashrc."""
    outside = tree.root / "outside"
    write(outside / "secret.txt", "secret")
    (tree.project / "docs").symlink_to(outside)
    (tree.project / "src").mkdir()
    (tree.project / "src" / "link").symlink_to(outside)
    write(tree.root / "home" / ".ssh" / "id_rsa", "key")
    write(tree.root / "home" / ".bashrc", "# rc")
    write(tree.project / "README.md", "hello")
    write(tree.project / "secrets" / "key.txt", "k")
    return tree


SUBSTITUTIONS = [
    "echo $(touch x)",
    "echo `touch x`",
    "echo hi & touch x",
    "echo pwned > x",
    "cat <(touch x)",
    "echo hi && touch x",
    "echo hi; touch x",
    "echo hi | touch x",
    "echo hi\ntouch x",
    'echo "$(touch x)"',
    "echo ${x:-$(touch x)}",
    "echo $((1+2))",
    "echo `echo \\`touch y\\``",
    "cat <<EOF\n$(touch x)\nEOF",
    "for f in a; do touch $f; done",
    "f() { touch x; }; f",
    "echo 'unclosed",
    "$CMD x",
    'eval "$X"',
]


@pytest.mark.parametrize("command", SUBSTITUTIONS)
def test_an_allowed_prefix_never_carries_another_command(world: Tree, command: str) -> None:
    permissions = _permissions(world, allow=["Bash(echo *)", "Bash(cat *)"])
    decision = permissions.decide("Bash", {"command": command})
    assert decision.decision in ("ask", "deny"), decision.reason


def test_the_allowed_prefix_itself_still_runs(world: Tree) -> None:
    permissions = _permissions(world, allow=["Bash(echo *)"])
    for command in (
        "echo hi",
        "echo 'a && b; c'",
        "echo '$(touch x)'",
        "echo hi > /dev/null",
        "echo hi 2>&1",
        "timeout 5 echo hi",
    ):
        assert permissions.decide("Bash", {"command": command}).decision == "allow", command


def test_git_status_prefix_does_not_carry_a_substitution(world: Tree) -> None:
    permissions = _permissions(world, allow=["Bash(git status*)"])
    assert permissions.decide("Bash", {"command": "git status"}).decision == "allow"
    assert permissions.decide("Bash", {"command": "git status$(touch /tmp/x)"}).decision == "ask"


DENIED_CURL = [
    "curl evil",
    "echo $(curl evil)",
    "echo `curl evil`",
    "FOO=1 curl evil",
    "timeout 5 curl evil",
    "timeout -s KILL 5 curl evil",
    "echo x | xargs curl",
    "echo x | xargs -I{} curl {}",
    "env curl x",
    "env -u HOME A=b curl x",
    "nice -n 5 curl x",
    "nohup curl x",
    "sudo -u root curl x",
    'bash -c "curl x"',
    "sh -c 'echo a; curl x'",
    'eval "curl x"',
    '"curl" x',
    "c\\url x",
    "'cu'rl x",
    "command curl x",
    "/usr/bin/curl x",
    "find . -exec curl {} \\;",
    "echo hi && (curl x)",
]


@pytest.mark.parametrize("scope", ["local", "managed"])
@pytest.mark.parametrize("command", DENIED_CURL)
def test_a_deny_holds_in_every_form(world: Tree, command: str, scope: str) -> None:
    permissions = _permissions(
        world,
        scope,
        deny=["Bash(curl *)"],
        allow=["Bash(echo *)", "Bash(timeout *)", "Bash(env *)", "Bash(xargs *)", "Bash(bash *)", "Bash(sh *)"],
    )
    decision = permissions.decide("Bash", {"command": command})
    assert decision.decision == "deny", decision.reason
    assert decision.rule is not None and decision.rule.text == "Bash(curl *)"


def test_a_wrapper_rule_does_not_approve_what_it_wraps(world: Tree) -> None:
    permissions = _permissions(world, allow=["Bash(timeout *)", "Bash(env *)", "Bash(bash *)", "Bash(xargs *)"])
    for command in ("timeout 5 rm -rf build", "env rm x", 'bash -c "rm x"', "echo x | xargs rm"):
        assert permissions.decide("Bash", {"command": command}).decision == "ask", command


def test_an_assignment_is_part_of_what_an_allow_rule_must_match(world: Tree) -> None:
    permissions = _permissions(world, allow=["Bash(ls *)"])
    assert permissions.decide("Bash", {"command": "LD_PRELOAD=/tmp/evil.so ls"}).decision == "ask"


@pytest.mark.parametrize(
    "command",
    [
        "ls /etc",
        "cat OUTSIDE/secret.txt",
        "cd .. && ls",
        "ls docs/",
        "cat docs/secret.txt",
        "cat ~/.ssh/id_rsa",
        "ls {/etc,.}",
        "cat ../*/x",
    ],
)
def test_bash_stays_inside_the_working_folder_whatever_a_rule_allows(world: Tree, command: str) -> None:
    permissions = _permissions(world, allow=["Bash(ls *)", "Bash(cat *)", "Bash(cd *)"])
    command = command.replace("OUTSIDE", str(world.root / "outside"))
    decision = permissions.decide("Bash", {"command": command})
    assert decision.decision == "ask", decision.reason


def test_inside_the_working_folder_the_rule_holds(world: Tree) -> None:
    permissions = _permissions(world, allow=["Bash(ls *)", "Bash(cat *)", "Bash(cd *)"])
    for command in ("ls", "ls -la src", "cat README.md", "cd src && ls", "cat ./README.md"):
        assert permissions.decide("Bash", {"command": command}).decision == "allow", command


def test_a_read_deny_stops_a_bash_read(world: Tree) -> None:
    permissions = _permissions(world, deny=["Read(./secrets/**)"], allow=["Bash(cat *)", "Bash(grep *)"])
    for command in ("cat secrets/key.txt", "cat ./secrets/key.txt", "grep -r x secrets/", "cat < secrets/key.txt"):
        decision = permissions.decide("Bash", {"command": command})
        assert decision.decision == "deny", (command, decision.reason)


def test_an_edit_deny_stops_a_redirection_and_a_write_command(world: Tree) -> None:
    permissions = _permissions(world, deny=["Edit(~/.bashrc)"], allow=["Bash(echo *)", "Bash(tee *)"])
    for command in ("echo pwned >> ~/.bashrc", "echo x | tee ~/.bashrc"):
        assert permissions.decide("Bash", {"command": command}).decision == "deny", command


FILE_CALLS: list[tuple[str, dict[str, Any], dict[str, list[str]]]] = [
    ("Read", {"file_path": "docs/secret.txt"}, {}),
    ("Read", {"file_path": "PROJECT/docs/secret.txt"}, {}),
    ("Glob", {"pattern": "**/*", "path": "docs"}, {}),
    ("Glob", {"pattern": "../*"}, {}),
    ("Glob", {"pattern": "../../../../../../../../../../../../../../../../../../*"}, {}),
    ("Glob", {"pattern": "*/../../*"}, {}),
    ("Grep", {"pattern": "x", "glob": "../**"}, {}),
    ("Grep", {"pattern": "x", "path": "docs"}, {}),
    ("Read", {"file_path": "~/.ssh/id_rsa"}, {}),
    ("Read", {"file_path": "~/.ssh/id_rsa"}, {"deny": ["Read(~/.ssh/**)"]}),
    ("Read", {"file_path": "HOME/.ssh/id_rsa"}, {"deny": ["Read(~/.ssh/**)"]}),
    ("Write", {"file_path": "src/link/c.txt", "content": "x"}, {"allow": ["Edit(./src/**)"]}),
    ("Write", {"file_path": "src/../b.txt", "content": "x"}, {"allow": ["Edit(./src/**)"]}),
    ("Write", {"file_path": "~/.bashrc", "content": "x"}, {"deny": ["Edit(~/.bashrc)"]}),
    ("Read", {"file_path": "docs/secret.txt"}, {"deny": ["Read(OUTSIDE/**)"]}),
]


@pytest.mark.parametrize(
    ("tool", "tool_input", "rules"), FILE_CALLS, ids=[f"{c[0]}-{json.dumps(c[1])}-{c[2]}" for c in FILE_CALLS]
)
def test_file_calls_that_leave_the_project_are_not_allowed(
    world: Tree, tool: str, tool_input: dict[str, Any], rules: dict[str, list[str]]
) -> None:
    def fill(text: str) -> str:
        return (
            text.replace("PROJECT", str(world.project))
            .replace("HOME", str(world.root / "home"))
            .replace("OUTSIDE", "/" + str(world.root / "outside"))
        )

    permissions = _permissions(world, **{k: [fill(r) for r in v] for k, v in rules.items()})
    decision = permissions.decide(tool, {k: fill(v) for k, v in tool_input.items()})
    assert decision.decision in ("ask", "deny"), decision.reason
    if rules.get("deny"):
        assert decision.decision == "deny", decision.reason


def test_inside_reads_and_allowed_writes_still_pass(world: Tree) -> None:
    permissions = _permissions(world, allow=["Edit(./src/**)"])
    assert permissions.decide("Read", {"file_path": "README.md"}).decision == "allow"
    assert permissions.decide("Glob", {"pattern": "src/**/*.py"}).decision == "allow"
    assert permissions.decide("Grep", {"pattern": "x", "glob": "*.md"}).decision == "allow"
    assert permissions.decide("Write", {"file_path": "src/a.txt"}).decision == "allow"


def test_a_found_file_is_readable_only_inside_and_not_denied(world: Tree) -> None:
    permissions = _permissions(world, deny=["Read(./secrets/**)"])
    assert permissions.readable(world.project / "README.md", world.project)
    assert not permissions.readable(world.project / "docs" / "secret.txt", world.project), "a symlink out of the project"
    assert not permissions.readable(world.project / "secrets" / "key.txt", world.project), "a denied file"


def test_the_parser_finds_every_command() -> None:
    found, opaque = invocations(parse("FOO=$(id) timeout 5 bash -c 'ls; rm x' 2>&1 | tee log && echo `date`"))
    names = [inv.name for inv in found]
    assert {"id", "timeout", "bash", "ls", "rm", "tee", "echo", "date"} <= set(names), names
    assert opaque == ["a command substitution ($(...), `...`, <(...) or >(...))"] * 2


@pytest.mark.parametrize(
    "command", ["cat <<EOF\nx\nEOF", "echo $((1))", "for x in y; do :; done", "echo 'x", "a=(1 2)", "x" * 20_001]
)
def test_what_cannot_be_read_is_said(command: str) -> None:
    assert parse(command).opaque


def test_a_deeply_nested_line_is_bounded() -> None:
    command = "echo " + "$(" * 5000 + "x" + ")" * 5000
    parsed = parse(command[:19_000])
    assert parsed.opaque


def test_check_rule_answers_ask_for_a_smuggled_command(world: Tree, tmp_path: Path) -> None:
    """`skilldeck check 'Bash(git status$(touch /tmp/x))'` with `Bash(git status*)`."""
    from engine import call_from_rule

    permissions = _permissions(world, allow=["Bash(git status*)"])
    call = call_from_rule("Bash(git status$(touch /tmp/x))")
    assert call is not None
    assert permissions.decide(*call).decision == "ask"


def test_a_rule_for_the_whole_tool_allows_what_cannot_be_read_but_not_a_deny(world: Tree) -> None:
    permissions = _permissions(world, allow=["Bash"], deny=["Bash(curl *)"])
    for command in ("for f in *; do wc -l $f; done", "echo $((1+2)) > out.txt", "cat <<EOF\nx\nEOF"):
        assert permissions.decide("Bash", {"command": command}).decision == "allow", command
    assert permissions.decide("Bash", {"command": "for f in a; do curl $f; done"}).decision == "deny"


# Claude Code's read-only list (recorded: bash_read_only_list) and what stays asked beside it.
@pytest.mark.parametrize(
    "command",
    [
        "diff README.md README.md", "printf ''", "printf '  a\\n'", "lsof -v", "sort README.md", "tree", "du -sh .",
        "git branch", "git branch -a", "git tag", "git tag -l 'v*'", "git remote -v", "git stash list", "git reflog",
        "git config --get user.name", "git rev-parse HEAD", "git --no-pager log -1", "sha256sum README.md", "jq . a.json",
    ],
)  # fmt: skip
def test_what_claude_code_runs_without_a_rule_runs(world: Tree, command: str) -> None:
    write(world.project / "a.json", "{}")
    assert _permissions(world).decide("Bash", {"command": command}).decision == "allow", command


@pytest.mark.parametrize(
    "command",
    [
        "git branch x", "git branch -D main", "git tag v1", "git tag -l -d v1", "git remote add o u", "git stash",
        "git reflog expire --all", "git config user.name x", "git config --file /etc/x --list", "git config --get --global x",
        "git grep --open-files-in-pager=vi x", "git blame --contents /etc/passwd README.md", "git -c core.pager=x log",
        "sort -o out README.md", "sort --compress-program=sh README.md", "tree -o out", "tree -R", "tree -l",
        "printf -v x hi", "sha256sum -c sums", "hexdump -f fmt README.md", "comm /etc/passwd /etc/group",
        "jq -f prog.jq a.json", "du -L .", "diff README.md /etc/passwd", "uniq README.md out", "hostname x",
    ],
)  # fmt: skip
def test_what_writes_runs_a_program_or_reads_outside_is_still_asked(world: Tree, command: str) -> None:
    assert _permissions(world).decide("Bash", {"command": command}).decision == "ask", command

"""Write the command reference, docs/reference/commands.md, from the Typer app
(solver.cli.app): ``python tests/make_commands_page.py`` after changing a
command, an option or a help text. tests/test_docs.py makes the page again in
the default run, compares it with the one checked in, and holds each command's
section equal to what ``chess960 <command> --help`` prints.

The page has a section a command (the groups' subcommands after their group):
the command's help text, then its ``--help`` as printed (usage, arguments,
options with their values, choices and defaults, examples) in an 80-column terminal.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

import typer

from solver.cli.app import app

PAGE = Path(__file__).resolve().parent.parent / "docs" / "reference" / "commands.md"
REGENERATE = "python tests/make_commands_page.py"
#: The terminal's width help is written for.
WIDTH = 80

HEAD = """\
# Commands

<!-- Generated from the Typer app (solver/cli/app.py) by `{regenerate}`{made_with};
do not edit: tests/test_docs.py holds it equal to `--help`. -->

Every command of `chess960`, with what `chess960 COMMAND --help` prints:
its arguments, its options with their values and defaults, and examples.
`-h` is short for `--help`; an unknown option, a bad value or a missing
argument prints one `error:` line and exits with status 2, a bad input one
`error:` line and status 1.
"""


def commands() -> list[tuple[str, Any, Any]]:
    """``(words, command, context)`` of the app and of every command and
    subcommand, in the order ``--help`` lists them (Click's objects, as Typer
    makes them from the declarations)."""
    group: Any = typer.main.get_command(app)
    found: list[tuple[str, Any, Any]] = []

    def walk(command: Any, parent: Any, words: list[str]) -> None:
        context = command.make_context(words[-1], [], parent=parent, resilient_parsing=True)
        found.append((" ".join(words[1:]), command, context))
        for name, sub in getattr(command, "commands", {}).items():
            walk(sub, context, [*words, name])

    walk(group, None, ["chess960"])
    # `eval merge`: a command of its own (`eval` takes positions), after `eval`
    from solver.cli.app import eval_merge_app

    merge: Any = typer.main.get_command(eval_merge_app)
    at = next(i for i, (words, _, _) in enumerate(found) if words == "eval") + 1
    found.insert(at, ("eval merge", merge, merge.make_context(
        "merge", [], parent=found[at - 1][2], resilient_parsing=True)))
    return found


def help_text(words: str) -> str:
    """What ``chess960 WORDS --help`` prints in an 80-column terminal: the console
    command's own dispatch, run here (``COLUMNS`` set while it runs)."""
    import contextlib
    import io
    import os

    from solver.cli.entry import dispatch

    printed = io.StringIO()
    before = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = str(WIDTH)
    try:
        with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(printed):
            code = dispatch([*words.split(), "--help"])
    finally:
        if before is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = before
    if code != 0:
        raise RuntimeError(f"chess960 {words} --help exited {code}: {printed.getvalue()}")
    return printed.getvalue()


def _escaped(text: str) -> str:
    """``text`` as Markdown: its `code spans` kept, other punctuation Markdown reads escaped."""
    parts = re.split(r"(`[^`]*`)", text)
    return "".join(part if part.startswith("`") else re.sub(r"([\\*_<>\[\]|~#&$])", r"\\\1", part)
                   for part in parts)


def _summary(command: Any) -> str:
    """The first paragraph of the command's help, on one line."""
    first = (command.help or "").replace("\b", "").strip().split("\n\n")[0]
    return _escaped(" ".join(first.split()))


def page(made_with: str = "") -> str:
    """The text of docs/reference/commands.md (``made_with``: a note on the
    Typer that made it, left out of comparisons)."""
    parts = [HEAD.format(regenerate=REGENERATE, made_with=made_with)]
    listed = []
    for words, command, _ in commands()[1:]:
        listed.append(f"- [`chess960 {words}`](#{'-'.join(['chess960', *words.split()])}): "
                      f"{_summary(command)}")
    parts.append("\n".join(listed) + "\n")
    for words, command, _ in commands():
        title = f"chess960 {words}".strip()
        parts.append(f"## {title}\n\n{_summary(command)}\n\n```text\n"
                     f"{help_text(words)}```\n")
    return "\n".join(parts)


def made_with() -> str:
    """The note on the Typer making the page (kept in it, not compared)."""
    return f" (Typer {typer.__version__})"


def write_page() -> None:
    """Write docs/reference/commands.md afresh."""
    PAGE.write_text(page(made_with()), encoding="utf-8")
    sys.stdout.write(f"wrote {PAGE}\n")


if __name__ == "__main__":
    write_page()

"""Shell completion answered without Typer: option values and command names.

The completion scripts ``chess960 --install-completion`` installs (Typer's)
run ``chess960`` with ``_CHESS960_COMPLETE=complete_<shell>`` and the command
line in the environment (bash: ``COMP_WORDS`` and ``COMP_CWORD``; zsh and fish:
``_TYPER_COMPLETE_ARGS``). Importing Typer alone takes longer than a TAB should,
so :func:`complete` answers the common requests from the light tables below and
in the shell's format, as Typer would write them:

* the value of an option: ``--rules`` (the bundled families), ``--format``,
  ``--dialect``, ``--variant``, ``--fix`` (the values its metavar lists, which
  are its registry's names, in the table generated from the Typer app,
  :data:`solver.cli.quick_table.VALUES`; an option whose values are free, such
  as ``--seed``, offers none);
* for bash, a command's name.

Anything else (an option's name, an argument, ``--``, another shell) returns
None and Typer answers it. The table of options is the Typer app's, made by
``python tests/make_quick_table.py`` and compared with the app in the default
run (tests/test_fast_path.py).
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from solver.cli.quick_table import VALUES

#: The variable Typer's completion scripts set (``_{PROG}_COMPLETE``).
COMPLETE_VAR = "_CHESS960_COMPLETE"

#: The commands, in the order ``chess960 --help`` lists them.
COMMANDS = tuple(VALUES)


def family_names() -> list[str]:
    """The bundled families (:func:`solver.ruleset.reader.bundled_names`, without
    importing the rule reader)."""
    from solver.ruleset.bundled import rules_folder

    try:
        names = os.listdir(rules_folder())
    except OSError:
        return []
    return sorted(name[:-5] for name in names if name.endswith(".toml"))


def values(command: str, option: str, args: list[str]) -> list[str]:
    """What the value of ``option`` of ``command`` may be (empty when free): the
    values its metavar lists (:data:`~solver.cli.quick_table.VALUES`), or the
    bundled families for ``NAME|FILE``.

    >>> values("lint", "--fix", []), values("random", "--seed", [])
    (['xfen', 'shredder'], [])
    """
    listed = VALUES[command][option]
    if listed == "NAME|FILE":
        return family_names()
    if (command, option) == ("lint", "--dialect") and "--variant" in args:
        listed = VALUES["solve"]["--dialect"]  # with --variant, any program's FENs are read
    return listed.split("|") if listed else []


def split_words(text: str) -> list[str]:
    """The words of a command line as a shell would split them (Click's
    ``split_arg_string``: an unclosed quote ends the last word)."""
    import shlex

    lexer = shlex.shlex(text, posix=True)
    lexer.whitespace_split = True
    lexer.commenters = ""
    words: list[str] = []
    try:
        words.extend(lexer)
    except ValueError:
        words.append(lexer.token)
    return words


def _request(shell: str, env: Mapping[str, str]) -> tuple[list[str], str]:
    """The complete words after the program's name, and the one being typed."""
    if shell == "bash":
        words = split_words(env["COMP_WORDS"])
        cword = int(env["COMP_CWORD"])
        if cword < 1:
            raise ValueError(cword)
        return words[1:cword], words[cword] if cword < len(words) else ""
    line = env.get("_TYPER_COMPLETE_ARGS", "")
    args = split_words(line)[1:]
    if args and not line.endswith(" "):
        return args[:-1], args[-1]
    return args, ""


def candidates(shell: str, args: list[str], incomplete: str) -> list[str] | None:
    """The completions of ``incomplete`` after ``args``, or None to leave to Typer."""
    args = list(args)
    if args[-1:] == ["="] and len(args) > 1:  # bash splits `--format=` at the `=`
        args.pop()
    if incomplete == "=":
        incomplete = ""
    elif incomplete.startswith("-") and "=" in incomplete:
        name, _, incomplete = incomplete.partition("=")
        args.append(name)
    if "--" in args or incomplete.startswith("-"):
        return None
    if not args:
        if shell != "bash":
            return None  # zsh and fish show each command's help: Typer's
        return [name for name in COMMANDS if name.startswith(incomplete)]
    command = args[0]
    options = VALUES.get(command)
    if options is None or args[-1] not in options:
        return None
    return [value for value in values(command, args[-1], args) if value.startswith(incomplete)]


def _zsh_escape(text: str) -> str:
    return (text.replace('"', '""').replace("'", "''").replace("$", "\\$")
            .replace("`", "\\`").replace(":", r"\\:"))


def complete(env: Mapping[str, str] | None = None) -> tuple[str, int] | None:
    """``(output, exit code)`` answering the completion request in ``env`` (the
    environment by default) as Typer would, or None when Typer is to answer it."""
    env = os.environ if env is None else env
    action, _, shell = env.get(COMPLETE_VAR, "").partition("_")
    if action != "complete" or shell not in ("bash", "zsh", "fish"):
        return None
    try:
        args, incomplete = _request(shell, env)
    except (KeyError, ValueError):  # no COMP_WORDS, a COMP_CWORD that is not a number
        return "\n", 0  # nothing to offer (Typer would stop with a traceback)
    found = candidates(shell, args, incomplete)
    if found is None:
        return None
    if shell == "bash":
        return "\n".join(found) + "\n", 0
    if shell == "zsh":
        if not found:
            return "_files\n", 0
        listed = "\n".join(f'"{_zsh_escape(value)}"' for value in found)
        return f"_arguments '*: :(({listed}))'\n", 0
    if env.get("_TYPER_COMPLETE_FISH_ACTION") == "is-args":
        return "", 0 if found else 1
    if env.get("_TYPER_COMPLETE_FISH_ACTION") == "get-args" and found:
        return "\n".join(found) + "\n", 0
    return "\n", 0

"""The quick path of the common commands: their command lines parsed with a
table generated from the Typer app, without importing Typer.

:mod:`solver.cli.app` declares every command once; ``tests/make_quick_table.py``
reads those declarations (through ``typer.main.get_command`` and the Typer
parameters: option names, flag or value, repeats, default, bounds, choices,
callback, and the Python parameter's name) for the commands in :data:`QUICK`
and writes them as :mod:`solver.cli.quick_table`, checked in; a default-run
test makes the table again and compares. After changing a command's options,
regenerate it::

    python tests/make_quick_table.py

:func:`parse` takes only what cannot be answered otherwise than Typer would:
known options, each once unless it repeats, values it can check from the
table (a bound, a choice: a callback that only checks a name is in a registry
has the registry's names in the table; else the option's own callback), never ``--``,
``--help``, attached short values, a value starting with ``-`` (``-`` alone
aside) or an unknown option. It returns the command's body in
:mod:`solver.cli.bodies`, the function the Typer command calls, with the
keyword arguments Typer would call it with.
"""

from __future__ import annotations

from collections.abc import Callable

TYPE_CHECKING = False  # typing is the type checker's alone: importing it costs start-up
if TYPE_CHECKING:
    from typing import Any

    Parsed = tuple[Callable[..., int], dict[str, Any]]

#: The commands the quick path answers: what scripts call most, one call at a time.
QUICK = ("id", "position", "convert", "random", "show", "rules", "plan", "check", "solve",
         "lint", "which", "compare", "book", "eval", "dice", "games stats", "games tree")

#: A parameter's kinds in the table: a flag, a text, an integer; ``other``
#: (anything else) is left to Typer whenever it is given.
KINDS = ("flag", "str", "int", "other")


def parse(argv: list[str]) -> Parsed | None:
    """``(body, keyword arguments)`` when the quick path takes ``argv``, else None
    (Typer then answers it, its errors and help included).

    >>> body, arguments = parse(["position", "518", "-r", "dfrc"])
    >>> body.__name__, arguments["ids"], arguments["rules"], arguments["fmt"]
    ('position', ['518'], 'dfrc', 'text')
    >>> parse(["random", "--seed", "1", "-n", "0"]) is None  # Typer words the error
    True
    """
    from solver.cli.quick_table import TABLE

    name = " ".join(argv[:2]) if argv[:1] == ["games"] else "".join(argv[:1])
    command = TABLE.get(name)
    if command is None:
        return None
    given = _given(argv[len(name.split()):], command)
    if given is None:
        return None
    arguments = {key: param.get("default") for key, param in command["params"].items()}
    for key, value in given.items():
        param = command["params"][key]
        arguments[key] = value
        if "callback" in param and "choices" not in param:  # (choices: checked already)
            try:
                arguments[key] = _function(param["callback"])(value)
            except Exception:  # Typer words the refusal
                return None
    if any(param["required"] and key not in given
           for key, param in command["params"].items()):
        return None
    return _function(command["body"]), arguments


def _given(args: list[str], command: dict[str, Any]) -> dict[str, Any] | None:
    """The parameters ``args`` give, converted, or None if any is not plain."""
    options: dict[str, str] = command["options"]
    params: dict[str, dict[str, Any]] = command["params"]
    argument = command["argument"]
    given: dict[str, Any] = {}
    positional: list[str] = []
    rest = iter(args)
    for arg in rest:
        if arg == "-" or not arg.startswith("-"):
            positional.append(arg)
            continue
        name, equals, attached = arg.partition("=") if arg.startswith("--") else (arg, "", "")
        key = options.get(name)
        if key is None:
            return None
        param = params[key]
        if param["kind"] == "flag":
            value: Any = True if not equals else None
        else:
            value = _value(attached if equals else next(rest, None), param)
        if value is None or (key in given and not param["multiple"]):
            return None
        if param["multiple"]:
            given.setdefault(key, []).append(value)
        else:
            given[key] = value
    if positional:
        if argument is None or (argument["nargs"] == 1 and len(positional) != 1):
            return None
        given[argument["name"]] = positional[0] if argument["nargs"] == 1 else positional
    return given


def _value(text: str | None, param: dict[str, Any]) -> str | int | None:
    """An option's value as Typer would pass it, or None if the table cannot tell."""
    if text is None or (text.startswith("-") and text != "-"):
        return None
    if "choices" in param:
        return text if text in param["choices"] else None
    if param["kind"] == "str":
        return text
    if param["kind"] != "int" or not (text.isascii() and text.isdigit() and len(text) < 19
                                      and (text == "0" or text[0] != "0")):
        return None
    number = int(text)
    low, high = param.get("min"), param.get("max")
    return None if (low is not None and number < low) or (
        high is not None and number > high) else number


def _function(name: str) -> Callable[..., Any]:
    """The function ``module:name``."""
    import importlib

    module, _, attribute = name.partition(":")
    function: Callable[..., Any] = getattr(importlib.import_module(module), attribute)
    return function

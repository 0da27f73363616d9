"""Write the quick path's table, solver/cli/quick_table.py, from the Typer app's
declarations (solver.cli.app): ``python tests/make_quick_table.py`` after
changing a common command's options. tests/test_fast_path.py makes the table
again in the default run and compares it with the one checked in.

For each command of :data:`solver.cli.quick.QUICK`: the body it calls
(:mod:`solver.cli.bodies`, the function named as the Typer command's), its
argument, each option's names and the Python parameter it sets, and each
parameter's kind (flag, str, int, other), whether it repeats or is required,
its default, bounds, choices and callback, read through
``typer.main.get_command`` and Typer's own parameter declarations.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import typer

from solver.cli import bodies, quick
from solver.cli.app import app, command_name


def quick_table() -> dict[str, dict[str, Any]]:
    """The quick path's table (:mod:`solver.cli.quick`), read from this app's
    declarations of the commands in :data:`~solver.cli.quick.QUICK`."""
    group: Any = typer.main.get_command(app)
    functions: dict[str, Any] = {command_name(info): info.callback
                                 for info in app.registered_commands}
    for sub in app.registered_groups:
        instance: Any = sub.typer_instance
        functions |= {f"{sub.name} {command_name(info)}": info.callback
                      for info in instance.registered_commands}
    table: dict[str, dict[str, Any]] = {}
    for name in quick.QUICK:
        command = group
        for word in name.split():
            command = command.commands[word]
        table[name] = _quick_command(command, functions[name])
    return table


def _quick_command(command: Any, function: Callable[..., Any]) -> dict[str, Any]:
    """One command's entry: its body, its argument, its options and parameters."""
    body = f"solver.cli.bodies:{function.__name__}"
    argument = None
    options: dict[str, str] = {}
    params: dict[str, dict[str, Any]] = {}
    for param in command.params:
        if getattr(param, "param_type_name", "") == "argument":
            if argument is not None:
                raise ValueError(f"{command.name}: the quick path takes one argument at most")
            argument = {"name": param.name, "nargs": param.nargs}
        else:
            for option in [*param.opts, *param.secondary_opts]:
                options[option] = param.name
        params[param.name] = _quick_param(param)
    return {"body": body, "argument": argument, "options": options, "params": params}


def _quick_param(param: Any) -> dict[str, Any]:
    """A parameter's entry: kind, repeats, default, bounds, choices, callback."""
    import types
    import typing

    info = param.type_descriptor.parameter_info
    annotation = param.type_descriptor.annotation
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        annotation = next(a for a in typing.get_args(annotation) if a is not type(None))
    if typing.get_origin(annotation) is list:
        (annotation,) = typing.get_args(annotation)
    choices = None
    if typing.get_origin(annotation) is typing.Literal:
        choices = [str(choice) for choice in typing.get_args(annotation)]
        annotation = str
    kind = {bool: "flag", str: "str", int: "int"}.get(annotation, "other")
    if kind == "flag" and (param.secondary_opts or not param.is_flag):
        kind = "other"
    if param.envvar or getattr(param, "count", False):
        kind = "other"
    callback = getattr(info, "callback", None)
    if callback is not None and callback.__name__ in bodies.CHOICES:
        import importlib

        module, name = bodies.CHOICES[callback.__name__]
        choices = list(getattr(importlib.import_module(module), name))
    return {
        "kind": kind,
        "multiple": bool(param.multiple or param.nargs == -1),
        "required": bool(param.required),
        "default": param.default,
        "min": getattr(param, "min", None),
        "max": getattr(param, "max", None),
        "choices": choices,
        "callback": None if callback is None else f"{callback.__module__}:{callback.__name__}",
    }


def value_table() -> dict[str, dict[str, str]]:
    """Each command's options that take a value, in the app's order (what shell
    completion offers, :mod:`solver.cli.complete`): option -> its metavar when
    that lists the values (``a|b|c``; ``NAME|FILE``: the bundled families),
    else ``""`` (a free value)."""
    group: Any = typer.main.get_command(app)
    return {name: {opt: param.metavar if "|" in (param.metavar or "") else ""
                   for param in group.commands[name].params
                   if isinstance(param, typer.core.TyperOption) and not param.is_flag
                   for opt in param.opts}
            for name in group.list_commands(None)}


def write_quick_table() -> None:
    """Write :mod:`solver.cli.quick_table` afresh."""
    path = Path(quick.__file__).with_name("quick_table.py")
    path.write_text(table_source(quick_table(), value_table()), encoding="utf-8")
    sys.stdout.write(f"wrote {path}\n")


HEADER = '''"""The quick path's table (:mod:`solver.cli.quick`): the common commands'
parameters as the Typer app in :mod:`solver.cli.app` declares them.

Generated; do not edit. After changing a command's options, regenerate it with
``python tests/make_quick_table.py`` (a default-run test, tests/test_fast_path.py,
compares it with the Typer app).
"""

# ruff: noqa: E501
from __future__ import annotations

TYPE_CHECKING = False  # typing is the type checker's alone: importing it costs start-up
if TYPE_CHECKING:
    from typing import Any

'''


def table_source(table: dict[str, dict[str, Any]], values: dict[str, dict[str, str]]) -> str:
    """The text of :mod:`solver.cli.quick_table` holding ``table`` (a command a
    block, a parameter a line, keys that are None left out) and ``values`` (a
    command a line)."""
    lines = [HEADER + "TABLE: dict[str, dict[str, Any]] = {"]
    for name, command in table.items():
        lines += [f"    {name!r}: {{", f"        'body': {command['body']!r},",
                  f"        'argument': {command['argument']!r},",
                  f"        'options': {command['options']!r},", "        'params': {"]
        for key, param in command["params"].items():
            shown = {k: v for k, v in param.items() if v is not None}
            lines.append(f"            {key!r}: {shown!r},")
        lines += ["        },", "    },"]
    lines += ["}", "", VALUES_HEADER + "VALUES: dict[str, dict[str, str]] = {"]
    lines += [f"    {name!r}: {options!r}," for name, options in values.items()]
    return "\n".join([*lines, "}", ""])


VALUES_HEADER = """\
#: Each command's options that take a value, in the order ``chess960 --help``
#: lists the commands (shell completion, :mod:`solver.cli.complete`): the option's
#: metavar when it lists the values (``NAME|FILE``: the bundled families), else
#: "" (a free value).
"""


if __name__ == "__main__":
    write_quick_table()

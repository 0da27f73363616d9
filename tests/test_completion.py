"""Shell completion (solver.cli.complete): option values from the registries the
commands use, command names, answered without Typer; the rest still by Typer.

The installed command is run as the completion scripts Typer installs run it
(``_CHESS960_COMPLETE=complete_<shell>`` with the command line in the
environment); the expected values come from the registries themselves.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
import typer
from inprocess import chess960
from profiles import sample

from solver.cli import app as cli
from solver.cli import complete
from solver.lists.book import BOOK_FORMATS
from solver.lists.lint import FIX_DIALECTS, NOTATIONS
from solver.notation.dialects import DIALECTS, VARIANTS
from solver.output import FORMATS
from solver.output.plan import PLAN_FORMATS
from solver.ruleset.reader import bundled_names

# The default run takes a sample of each list (profiles.sample), CI's slow step the rest.

CHESS960 = Path(sys.executable).parent / "chess960"


def _group() -> typer.core.TyperGroup:
    return typer.main.get_command(cli.app)  # type: ignore[return-value]


def _env(shell: str, line: str, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.endswith("_COMPLETE")}
    env[complete.COMPLETE_VAR] = f"complete_{shell}"
    if shell == "bash":
        words = line.split()
        env["COMP_WORDS"] = line
        env["COMP_CWORD"] = str(len(words) if line.endswith(" ") else len(words) - 1)
    else:
        env["_TYPER_COMPLETE_ARGS"] = line
    env.update(extra)
    return env


def _complete(shell: str, line: str, **extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(CHESS960)], env=_env(shell, line, **extra), capture_output=True,
                          text=True, check=False, timeout=60)


def _zsh(values: list[str]) -> str:
    if not values:
        return "_files\n"
    return "_arguments '*: :((" + "\n".join(f'"{v}"' for v in values) + "))'\n"


# -- the light tables are the app's and the registries' ----------------------------------------

def test_the_command_table_is_the_apps() -> None:
    """The commands and their value options are read from the generated table
    (solver/cli/quick_table.py's VALUES, which tests/test_fast_path.py compares
    with the app): every command, in the app's order, every option taking a value."""
    group = _group()
    apps = tuple(group.list_commands(None))  # type: ignore[arg-type]
    assert apps == complete.COMMANDS, "regenerate the table: python tests/make_quick_table.py"
    for name in complete.COMMANDS:
        command = group.commands[name]
        taking = {opt for param in command.params
                  if isinstance(param, typer.core.TyperOption) and not param.is_flag
                  for opt in param.opts}
        assert taking == set(complete.VALUES[name]), name


def test_the_value_lists_are_the_registries() -> None:
    def offered(line: str) -> list[str]:
        command, *args = line.split()
        return complete.values(command, args[-1], args)

    assert offered("position --format") == list(FORMATS)
    assert offered("plan --format") == list(PLAN_FORMATS)
    assert offered("solve --dialect") == list(DIALECTS)
    assert offered("lint --dialect") == list(FIX_DIALECTS)
    assert offered("lint --variant horde --dialect") == list(DIALECTS)
    assert offered("id --variant") == list(VARIANTS)
    assert offered("lint --fix") == list(NOTATIONS)
    assert offered("book --format") == list(BOOK_FORMATS)
    assert complete.family_names() == bundled_names()


def test_each_option_offers_what_its_help_names() -> None:
    """An option whose metavar lists its values (a|b|c) offers those; --rules the
    bundled families; an option with a free value offers nothing."""
    group = _group()
    for name in complete.COMMANDS:
        for param in group.commands[name].params:
            if not isinstance(param, typer.core.TyperOption) or param.is_flag:
                continue
            for opt in param.opts:
                offered = complete.values(name, opt, [])
                metavar = param.metavar or ""
                if metavar == "NAME|FILE":
                    assert offered == bundled_names(), (name, opt)
                elif "|" in metavar:
                    assert offered == metavar.split("|"), (name, opt)
                else:
                    assert offered == [], (name, opt)


# -- the installed command, as the shells call it ------------------------------------------------

EXPECTED = [
    ("solve --rules ", bundled_names()),
    ("id -r chess", [n for n in bundled_names() if n.startswith("chess")]),
    ("check --rules zz", []),
    ("position 518 -f ", list(FORMATS)),
    ("random --format e", [n for n in FORMATS if n.startswith("e")]),
    ("plan -f ", list(PLAN_FORMATS)),
    ("solve --dialect ", list(DIALECTS)),
    ("lint --dialect ", list(FIX_DIALECTS)),
    ("lint --variant horde --dialect ", list(DIALECTS)),
    ("id QNRBBNKR --variant ", list(VARIANTS)),
    ("lint --fix ", list(NOTATIONS)),
    ("random --seed ", []),
]


#: The lines asked in fish too (the same answers, in fish's form).
FISH = {"solve --rules ", "lint --fix ", "random --seed "}


@pytest.mark.parametrize(("line", "values"), sample(EXPECTED, 3))
def test_completion_offers_the_values(line: str, values: list[str]) -> None:
    bash = _complete("bash", f"chess960 {line}")
    assert (bash.returncode, bash.stdout, bash.stderr) == (0, "".join(f"{v}\n" for v in values)
                                                            or "\n", "")
    zsh = _complete("zsh", f"chess960 {line}")
    assert (zsh.returncode, zsh.stdout, zsh.stderr) == (0, _zsh(values), "")
    if line not in FISH:
        return
    fish = _complete("fish", f"chess960 {line}", _TYPER_COMPLETE_FISH_ACTION="get-args")
    assert fish.stdout == ("".join(f"{v}\n" for v in values) or "\n")
    asked = _complete("fish", f"chess960 {line}", _TYPER_COMPLETE_FISH_ACTION="is-args")
    assert (asked.returncode, asked.stdout) == (0 if values else 1, "")


def test_an_option_value_after_an_equals_sign() -> None:
    # bash splits `--format=e` into `--format`, `=`, `e`; zsh passes it whole
    assert _complete("bash", "chess960 solve --format = e").stdout == "epd\n"
    assert _complete("zsh", "chess960 solve --format=e").stdout == _zsh(["epd"])


def _typer_answer(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """Typer's own answer (the app run directly, not through the entry point)."""
    return subprocess.run([sys.executable, "-c", "import sys; from solver.cli.app import run; "
                           "sys.exit(run(['--']))"], env=env, capture_output=True, text=True,
                          check=False, timeout=60)


@pytest.mark.parametrize("line", sample(["chess960 ", "chess960 p", "chess960 x"], 1))
def test_command_names_are_typers(line: str) -> None:
    ours = _complete("bash", line)
    typers = _typer_answer(_env("bash", line))
    assert ours.stdout == typers.stdout and ours.returncode == typers.returncode == 0
    assert ours.stdout.strip() or line.endswith("x")


@pytest.mark.parametrize("env", sample([{"COMP_CWORD": "x"}, {"COMP_CWORD": "-1"},
                                        {"COMP_WORDS": None}, {"COMP_CWORD": None}], 1))
def test_a_malformed_bash_request_gets_nothing_and_no_traceback(
        env: dict[str, str | None]) -> None:
    asked = _env("bash", "chess960 solve --rules ")
    for name, value in env.items():
        if value is None:
            del asked[name]
        else:
            asked[name] = value
    done = subprocess.run([str(CHESS960)], env=asked, capture_output=True, text=True,
                          check=False, timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (0, "\n", "")


def test_the_rest_is_left_to_typer() -> None:
    # in this process: Typer answers what the light tables leave (a start-up's worth)
    options = chess960([], env=_env("bash", "chess960 solve --")).stdout.split()
    assert {"--rules", "--format", "--dialect", "--variant", "--help"} <= set(options)
    zsh = chess960([], env=_env("zsh", "chess960 ")).stdout
    assert zsh.startswith("_arguments") and '"plan":' in zsh
    assert complete.complete({}) is None
    assert complete.complete({complete.COMPLETE_VAR: "source_bash"}) is None


def test_show_and_install_completion_still_work(tmp_path: Path) -> None:
    shown = subprocess.run([str(CHESS960), "--show-completion", "bash"], capture_output=True,
                           text=True, check=False)
    assert shown.returncode == 0 and "_CHESS960_COMPLETE=complete_bash" in shown.stdout
    env = dict(os.environ, HOME=str(tmp_path))
    installed = subprocess.run([str(CHESS960), "--install-completion", "bash"], env=env,
                               capture_output=True, text=True, check=False)
    assert installed.returncode == 0, installed.stderr
    script = (tmp_path / ".bash_completions" / "chess960.sh").read_text()
    assert "_CHESS960_COMPLETE=complete_bash" in script
    assert "chess960.sh" in (tmp_path / ".bashrc").read_text()


def test_completion_imports_no_typer_and_answers_quickly() -> None:
    """The values come without Typer, Click or Pydantic (the real timing is in bench/)."""
    env = _env("bash", "chess960 solve --rules ")
    done = subprocess.run([sys.executable, "-X", "importtime", str(CHESS960)], env=env,
                          capture_output=True, text=True, check=True)
    imported = {line.rsplit("|", 1)[1].strip() for line in done.stderr.splitlines()
                if line.startswith("import time:")}
    heavy = {"typer", "click", "pydantic", "rich", "solver.cli.app", "solver.output",
             "solver.notation", "solver.ruleset.reader", "tomllib"}
    assert imported and not {m for m in imported if m in heavy or m.split(".")[0] in heavy}
    start = time.perf_counter()
    assert "chess960" in _complete("bash", "chess960 solve --rules ").stdout
    assert time.perf_counter() - start < 2.0  # a generous bound: a shared, busy machine

"""The house rules: one way for data to flow, and nothing shipped undocumented or untested.

* no import cycles among the package's modules (function-level imports
  and imports for type checking included);
* the folders (and top-level modules) are layers in the order the data
  flows (:data:`LAYERS`): every import goes down, or sideways within a
  layer without a cycle, function-level and type-checking imports included;
* every rule kind in the code is one whole class (its counting tracker
  included) in the one registry, has its section in ``rules/README.md`` and
  its example in ``tests/kind_examples.py``, checked against both the
  explanations and the solver;
* every output format is in the README's table and the command's help, and
  is written and read back by one parametrised test;
* Ctrl-C at any moment of start-up exits 130 without a traceback.
"""

from __future__ import annotations

import ast
import inspect
import io
import re
import subprocess
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, ClassVar

import pytest
from kind_examples import EXAMPLES
from typer.testing import CliRunner

import solver
from solver.cli.app import app
from solver.errors import Violation
from solver.family import Family
from solver.kinds.base import REGISTRY, Placement, Rule
from solver.kinds.model import Model
from solver.kinds.vocabulary import KINDS, Between
from solver.output import FORMATS, PositionWriter, read_back
from solver.ruleset.reader import parse, rules_dir
from solver.syntax.args import Context

PACKAGE = Path(solver.__file__).resolve().parent
README = Path(__file__).resolve().parents[1] / "README.md"


# -- imports -----------------------------------------------------------------------------


@cache
def _imports() -> tuple[tuple[str, int, str], ...]:
    """Every import among the package's modules as ``(module, line, imported)``:
    module-level, function-level and type-checking imports alike (relative
    ones resolved). Importing one's own package (its ``__init__``) is not one.
    Read once (ast only) for all the tests here."""
    modules = {}
    for path in PACKAGE.rglob("*.py"):
        name = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        modules[name.removesuffix(".__init__")] = path
    found: list[tuple[str, int, str]] = []
    for module, path in sorted(modules.items()):
        here = module if path.name == "__init__.py" else module.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = here.split(".")[: len(here.split(".")) - node.level + 1]
                    base = ".".join([*parts, base] if base else parts)
                names = [base, *(f"{base}.{a.name}" for a in node.names)]
            found += [(module, node.lineno, name) for name in names
                      if name in modules and name != module and not module.startswith(name + ".")]
    return tuple(found)


def _import_graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for path in PACKAGE.rglob("*.py"):
        name = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        graph[name.removesuffix(".__init__")] = set()
    for module, _, name in _imports():
        graph[module].add(name)
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_no_import_cycles_among_the_packages_modules() -> None:
    graph = _import_graph()
    assert len(graph) > 20
    assert _cycles(graph) == []


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_data_flows_one_way_cli_last() -> None:
    graph = _import_graph()
    below_cli = [m for m, deps in graph.items() if "solver.cli.app" in deps]
    assert below_cli == ["solver.cli.entry"]  # only the console entry point starts the CLI
    assert "solver.family" not in graph["solver.notation.fen"]


#: The package's layers, lowest first, in the order the data flows: a folder
#: (or top-level module, ``__init__`` the package's own) imports only from
#: itself and from the layers below it; the areas of one layer may import
#: each other one way only. The README's "Layout" says why each stands where it does.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("errors", "files", "lines"),
    ("board",),
    ("syntax",),  # the step syntax and a rule's arguments: below both kinds and ruleset
    ("kinds",),
    ("ruleset",),  # the reader makes the rules of the kinds (their registry)
    ("search",),
    ("notation",),
    ("position",),  # names its castling field with notation
    ("numbering",),
    ("family",),
    ("sampling", "check"),
    ("evaluation",),
    ("report",),  # a family's page: shows the shipped evaluations
    ("output",),  # its HTML page shows the report
    ("lists", "games", "draws"),
    ("cli",),
    ("__main__", "__init__"),
)


def _area(module: str) -> str:
    """The folder or top-level module ``module`` stands in (``__init__``: the package)."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def _layer_errors(imports: Sequence[tuple[str, int, str]],
                  layers: tuple[tuple[str, ...], ...]) -> list[str]:
    """What breaks the order of ``layers`` among ``imports``, one line each: an
    import upward, an area no layer names, areas of one layer in a cycle."""
    level = {area: n for n, layer in enumerate(layers, 1) for area in layer}
    errors: list[str] = []
    sideways: dict[str, set[str]] = {}
    for module, line, name in imports:
        area, other = _area(module), _area(name)
        for unplaced in (area, other):
            if unplaced not in level:
                errors.append(f"{unplaced!r} is in no layer: place it in LAYERS")
                level[unplaced] = -1
        if area == other or level[area] < 0 or level[other] < 0:
            continue
        if level[other] > level[area]:
            errors.append(f"{module}:{line} imports {name}, upward: {area} is layer "
                          f"{level[area]}, {other} layer {level[other]}")
        elif level[other] == level[area]:
            sideways.setdefault(area, set()).add(other)
    for cycle in _cycles({a: sideways.get(a, set()) for a in level}):
        ties = [f"{m}:{line} -> {n}" for m, line, n in imports
                if _area(m) in cycle and _area(n) in cycle and _area(m) != _area(n)]
        errors.append(f"{', '.join(cycle)} import each other (one layer, one way only): "
                      + "; ".join(ties))
    return sorted(set(errors))


def test_folders_are_layers_in_the_order_the_data_flows() -> None:
    imports = _imports()
    assert len(imports) > 300  # function-level ones counted too
    areas = {_area(module) for module in _import_graph()}
    placed = [area for layer in LAYERS for area in layer]
    assert len(placed) == len(set(placed))
    assert set(placed) == areas, (f"folders in no layer: {sorted(areas - set(placed))}; "
                                  f"layers of no folder: {sorted(set(placed) - areas)}")
    errors = _layer_errors(imports, LAYERS)
    order = " -> ".join(f"{n}. {'/'.join(layer)}" for n, layer in enumerate(LAYERS, 1))
    assert not errors, "\n".join([*errors, f"the layers, lowest first: {order}"])


def test_the_layer_check_names_an_upward_import_and_a_sideways_cycle() -> None:
    layers = (("a",), ("b", "c"), ("d",))
    imports = [("solver.d.x", 3, "solver.a.y"), ("solver.a.y", 7, "solver.d.x"),
               ("solver.b", 1, "solver.c.z"), ("solver.c.z", 2, "solver.b"),
               ("solver.e", 5, "solver.a")]
    errors = _layer_errors(imports, layers)
    assert errors == sorted([
        "'e' is in no layer: place it in LAYERS",
        "solver.a.y:7 imports solver.d.x, upward: a is layer 1, d layer 3",
        "b, c import each other (one layer, one way only): solver.b:1 -> solver.c.z; "
        "solver.c.z:2 -> solver.b",
    ])


# -- rule kinds ----------------------------------------------------------------------------

def _documented_kinds() -> set[str]:
    text = (rules_dir() / "README.md").read_text(encoding="utf-8")
    rules_part = text.split("\n## Rules\n", 1)[1].split("\n## ", 1)[0]
    return set(re.findall(r"^### (\S+)$", rules_part, flags=re.MULTILINE))


def test_every_rule_kind_is_documented_and_has_an_example() -> None:
    assert set(KINDS) == _documented_kinds()
    assert set(KINDS) == set(EXAMPLES)  # tests/kind_examples.py


def test_every_rule_kind_is_one_whole_class() -> None:
    """Each registered kind is a concrete Rule of its own name: it reads, states,
    explains and counts itself (no abstract method left, its tracker included)."""
    for name, kind in KINDS.items():
        assert issubclass(kind, Rule) and kind.kind == name
        assert not inspect.isabstract(kind), (name, sorted(kind.__abstractmethods__))
        assert kind.tracker is not Rule.tracker, name


def test_a_kind_without_its_counting_half_cannot_be_made() -> None:
    @dataclass(frozen=True)
    class Half(Rule):  # reads, states and explains, but does not count
        @classmethod
        def from_table(cls, table: Mapping[str, Any], ctx: Context) -> Rule:
            return cls()

        @property
        def label(self) -> str:
            return "half"

        def constrain(self, model: Model) -> None:
            pass

        def violations(self, placement: Placement) -> list[Violation]:
            return []

    assert inspect.isabstract(Half)
    with pytest.raises(TypeError, match="tracker"):
        Half()  # type: ignore[abstract]


def test_defining_a_kind_registers_it_once() -> None:
    assert list(KINDS) == list(REGISTRY)
    with pytest.raises(TypeError, match="'between' is defined twice"):
        class Again(Between):
            kind: ClassVar[str] = "between"
    assert KINDS["between"] is Between


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_each_rule_kind_explains_and_solves_alike(kind: str) -> None:
    table, good, bad = EXAMPLES[kind].table, EXAMPLES[kind].good, EXAMPLES[kind].bad
    text = (f'name = "one-{kind}"\ntitle = "t"\nsource = "s"\nfiles = 8\n'
            f'pieces = "KQRRBBNN"\ncount = 0\n\n[[rule]]\nkind = "{kind}"\n{table}\n')
    family = Family(parse(text))
    assert family.violations(good) == []
    broken = family.violations(bad)
    assert broken and all(v.rule.startswith(kind) for v in broken)
    solved = set(family.solver_ranks())
    assert good in solved
    assert bad not in solved


# -- output formats ------------------------------------------------------------------------


def _readme_formats() -> dict[str, str]:
    if not README.is_file():
        pytest.skip("README.md is not beside the tests (installed-package run)")
    block = README.read_text(encoding="utf-8").split("<!-- formats -->")[1]
    block = block.split("<!-- /formats -->")[0]
    rows = re.findall(r"^\| `([a-z]+)` \| (.+) \|$", block, flags=re.MULTILINE)
    return dict(rows)


def test_the_readme_lists_every_format_as_the_registry_describes_it() -> None:
    assert _readme_formats() == {name: kind.help for name, kind in FORMATS.items()}


def test_the_help_names_every_format() -> None:
    result = CliRunner().invoke(app, ["solve", "--help"], env={"COLUMNS": "400"})
    assert result.exit_code == 0
    for name, kind in FORMATS.items():
        assert name in result.stdout
        words = " ".join(re.sub("[│╭╮╰╯─]", " ", result.stdout).split())
        assert kind.help in words


SAMPLES = {
    "chess960": [0, 105, 518, 959],
    "dfrc": [0, 101318, 497798, 921599],
    "capablanca-random": [0, 12345, 47999],
}


@pytest.mark.parametrize("fmt", list(FORMATS))
@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_every_format_reads_back_what_it_wrote(fmt: str, name: str) -> None:
    family = Family.load(name)
    positions = [family.position(i) for i in SAMPLES[name]]
    for style in ("id", "rank", "id-rank"):
        out = io.StringIO()
        with PositionWriter(out, family, fmt, text=style) as writer:
            for position in positions:
                writer.write(position)
        assert read_back(fmt, family, out.getvalue()) == positions


@pytest.mark.parametrize("fmt", list(FORMATS))
def test_a_failed_listing_is_not_ended_as_if_complete(fmt: str) -> None:
    family = Family.load("chess960")
    out = io.StringIO()
    with pytest.raises(RuntimeError), PositionWriter(out, family, fmt) as writer:
        writer.write(family.position(518))
        raise RuntimeError("the solver failed")
    if fmt == "json":
        assert not out.getvalue().rstrip().endswith("]")


# -- Ctrl-C at start-up --------------------------------------------------------------------


@pytest.mark.parametrize("half_imported", ["solver.search.csp", "solver.search.csp.workers"])
def test_ctrl_c_while_the_solver_half_imports_exits_130_quietly(half_imported: str) -> None:
    code = ("import sys, types\nfrom solver.cli import entry\n"
            f"sys.modules[{half_imported!r}] = types.ModuleType({half_imported!r})\n"
            "entry._interrupted(2, None)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, check=False)
    assert done.returncode == 130
    assert "Traceback" not in done.stderr
    assert done.stderr == "\n"


def _layout_tree() -> set[str]:
    """The paths the README's layout tree names (two spaces of indent a level)."""
    block = README.read_text(encoding="utf-8").split("<!-- layout -->", 1)[1]
    block = block.split("<!-- /layout -->", 1)[0].strip().strip("`").removeprefix("text")
    paths: set[str] = set()
    parents: list[str] = []
    for line in block.strip("\n").splitlines():
        depth = (len(line) - len(line.lstrip(" "))) // 2
        name = line.split()[0]
        del parents[depth:]
        path = "".join(parents) + name
        paths.add(path.rstrip("/"))
        if name.endswith("/"):
            parents.append(name)
    return paths


def test_the_readme_layout_is_the_packages_tree() -> None:
    if not README.is_file():
        pytest.skip("README.md is not beside the tests (installed-package run)")
    code = {str(p.relative_to(PACKAGE.parent)) for p in PACKAGE.rglob("*.py")}
    code |= {str(p.parent.relative_to(PACKAGE.parent)) for p in PACKAGE.rglob("__init__.py")}
    named = _layout_tree()
    # a package's __init__ is named only where it holds more than a docstring
    inits = {p for p in code if p.endswith("/__init__.py") and p.count("/") > 1}
    assert named == code - inits

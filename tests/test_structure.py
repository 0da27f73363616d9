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
* every output format is in the formats reference's table and the command's help, and
  is written and read back by one parametrised test, and read by ``id -``,
  ``compare`` and ``lint``;
* every entry of the registries of dialects, variants, formats and side
  relations has its help line, its row in the docs, its example
  (tests/registry_examples.py), its completion and its name in ``--help``;
  every numbering (built in, or declared by a bundled rule file) its docs
  row and the test that proves it: a test names what a new entry lacks;
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

import docs_text
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
#: each other one way only. The "Layout" of docs/explanation/development.md
#: says why each stands where it does.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("errors", "files", "lines", "processes"),
    ("board",),
    ("syntax",),  # the step syntax and a rule's arguments: below both kinds and ruleset
    ("kinds",),
    ("ruleset",),  # the reader makes the rules of the kinds (their registry)
    ("search",),
    ("notation",),
    ("position",),  # names its castling field with notation and writes its FEN
    ("numbering", "sampling"),  # sampling draws IDs, and positions of what gives them
    ("family",),  # Family.random draws through sampling
    ("check",),
    ("idlists",),  # the lists of positions --ids, --exclude and --from take
    ("evaluation",),
    ("report",),  # a family's page: shows the shipped evaluations
    ("output",),  # its HTML page shows the report
    ("documents",),  # a document of any format read as its positions: the writers read it
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
    block = docs_text.page(docs_text.FORMATS).split("<!-- formats -->")[1]
    block = block.split("<!-- /formats -->")[0]
    rows = re.findall(r"^\| `([a-z]+)` \| (.+) \|$", block, flags=re.MULTILINE)
    return {name: _unescaped(text) for name, text in rows}


def _unescaped(text: str) -> str:
    """A Markdown table cell's text as it reads (``\\<id>`` is ``<id>``, not an HTML tag)."""
    return re.sub(r"\\([\\`*_<>\[\]|])", r"\1", text)


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


@pytest.mark.parametrize("half_imported", ["solver.search.csp", "solver.search.csp.workers",
                                           "solver.processes"])
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
    """The paths the documented layout tree names (two spaces of indent a level)."""
    block = docs_text.page(docs_text.DEVELOPMENT).split("<!-- layout -->", 1)[1]
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
    docs_text.page(docs_text.DEVELOPMENT)
    code = {str(p.relative_to(PACKAGE.parent)) for p in PACKAGE.rglob("*.py")}
    code |= {str(p.parent.relative_to(PACKAGE.parent)) for p in PACKAGE.rglob("__init__.py")}
    named = _layout_tree()
    # a package's __init__ is named only where it holds more than a docstring
    inits = {p for p in code if p.endswith("/__init__.py") and p.count("/") > 1}
    assert named == code - inits


# -- registries: dialects, variants, formats, sides ---------------------------------------
#
# Each registry's entries are classes (one an entry) carrying a name, a help
# line and the doc section whose table lists them. What a new entry lacks is
# named here: its help line, its row in the docs, its example
# (tests/registry_examples.py), its completion, its name in --help.


def _anchors(text: str) -> set[str]:
    """The GitHub anchors of a Markdown document's headings."""
    found = set()
    for heading in re.findall(r"^#+ (.+)$", text, flags=re.MULTILINE):
        slug = re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
        found.add(slug)
    return found


def _section(text: str, anchor: str) -> str:
    """The text of the section whose heading has this anchor (to the next heading)."""
    parts = re.split(r"^(#+ .+)$", text, flags=re.MULTILINE)
    for heading, body in zip(parts[1::2], parts[2::2], strict=True):
        if anchor in _anchors(heading):
            return body
    return ""


def _registries() -> dict[str, tuple[Mapping[str, Any], Path, str, str, str]]:
    """kind -> (registry, its doc file, the doc's table marker, completion kind, command)."""
    from solver.board.sides import SIDES
    from solver.notation.dialects import DIALECTS, VARIANTS

    rules_readme = rules_dir() / "README.md"
    return {
        "dialect": (DIALECTS, docs_text.FORMATS, "dialects", "dialect", "position"),
        "variant": (VARIANTS, docs_text.FORMATS, "variants", "variant", "position"),
        "format": (FORMATS, docs_text.FORMATS, "formats", "format", "position"),
        "sides": (SIDES, rules_readme, "", "", ""),
    }


def _examples(kind: str) -> Mapping[str, object]:
    import registry_examples as ex

    if kind == "sides":  # a relation's example is a bundled family standing on it
        from solver.ruleset.reader import bundled_names, load
        return {load(n).sides.name: n for n in bundled_names()}
    return {"dialect": ex.DIALECT_EXAMPLES, "variant": ex.VARIANT_EXAMPLES,
            "format": ex.FORMAT_EXAMPLES}[kind]


def _help_text(command: str) -> str:
    result = CliRunner().invoke(app, [command, "--help"], env={"COLUMNS": "400"})
    return " ".join(re.sub("[│╭╮╰╯─]", " ", result.stdout).split())


def _lacks(kind: str, name: str, entry: Any, text: str, doc: Path, marker: str,
           shown: str) -> list[str]:
    """What the registry entry ``name`` lacks, each as a sentence."""
    from solver.cli.complete import values

    missing = []
    if not entry.help or "\n" in entry.help or "|" in entry.help:
        missing.append("a help line (help = \"...\": one line, no '|')")
    section = _section(text, entry.doc)
    if not section:
        missing.append(f"a doc section: {doc.name} has no heading #{entry.doc} (doc = ...)")
    else:
        block = section.split(f"<!-- {marker} -->")[1].split(f"<!-- /{marker} -->")[0] \
            if marker and f"<!-- {marker} -->" in section else section
        rows = [(n, _unescaped(cell)) for n, cell in
                re.findall(r"^\| `([^`]+)` \| (.+?) \|", block, flags=re.MULTILINE)]
        if name not in dict(rows):
            missing.append(f"a row | `{name}` | ... | in {doc.name}'s table in #{entry.doc}")
        elif marker and dict(rows)[name] != entry.help:
            missing.append(f"its row in {doc.name} saying its help line {entry.help!r}")
    if name not in _examples(kind):
        missing.append("an example in tests/registry_examples.py")
    _, _, _, completion, command = _registries()[kind]
    if completion and name not in values(command, f"--{completion}", []):
        missing.append(f"completion: chess960 {command} --{completion} TAB does not offer it")
    if command and name not in shown:
        missing.append(f"its name in chess960 {command} --help")
    return missing


@pytest.mark.parametrize("kind", ["dialect", "variant", "format", "sides"])
def test_every_registry_entry_is_documented_exemplified_completed_and_helped(kind: str) -> None:
    registry, doc, marker, _, command = _registries()[kind]
    text = docs_text.page(doc)
    shown = _help_text(command) if command else ""
    lacking = {name: _lacks(kind, name, entry, text, doc, marker, shown)
               for name, entry in registry.items()}
    assert {n: m for n, m in lacking.items() if m} == {}
    assert set(_examples(kind)) <= set(registry), "an example of an entry no longer registered"
    if marker:  # the table lists the registry, in its order
        block = text.split(f"<!-- {marker} -->")[1].split(f"<!-- /{marker} -->")[0]
        assert re.findall(r"^\| `([^`]+)` \|", block, flags=re.MULTILINE) == list(registry)


def test_the_structure_test_names_what_an_entry_lacks() -> None:
    from solver.notation.dialects import Dialect

    class Unlisted(Dialect):  # not registered: no help, no row, no example, no completion
        name = "unlisted"

    text = docs_text.page(docs_text.FORMATS)
    missing = _lacks("dialect", "unlisted", Unlisted(), text, docs_text.FORMATS, "dialects", "")
    assert [m.split(" ", 2)[:2] for m in missing] == [
        ["a", "help"], ["a", "row"], ["an", "example"], ["completion:", "chess960"],
        ["its", "name"]]


def test_defining_an_entry_twice_is_refused() -> None:
    from solver.board.sides import Mirror
    from solver.board.sides import register as register_sides
    from solver.notation.dialects import XFen
    from solver.notation.dialects import register as register_dialect
    from solver.notation.variants import Chess
    from solver.notation.variants import register as register_variant

    for register, entry in ((register_dialect, XFen), (register_variant, Chess),
                            (register_sides, Mirror)):
        with pytest.raises(TypeError, match="defined twice"):
            register(entry)  # type: ignore[operator]


@pytest.mark.parametrize("name", sorted(_examples("format")))
def test_each_format_example_reads_back(name: str) -> None:
    """The registry's reader of each format reads its example (an independent document)."""
    family = Family.load("chess960")
    assert [p.id for p in read_back(name, family, FORMAT_EXAMPLES_[name])] == [518, 105]


FORMAT_EXAMPLES_ = _examples("format")


@pytest.mark.parametrize("fmt", list(FORMATS))
def test_id_compare_and_lint_read_every_format(fmt: str, tmp_path: Path) -> None:
    """What ``--format`` writes, ``id -``, ``compare`` and ``lint`` read (lint: the
    formats whose positions are FENs), whatever the format, told nothing."""
    from solver.cli.commands import identify_command
    from solver.lists.compare import compare_path
    from solver.lists.lint import lint_path

    family = Family.load("chess960")
    ids = [0, 105, 518, 959]
    out = io.StringIO()
    with PositionWriter(out, family, fmt) as writer:
        for number in ids:
            writer.write(family.position(number))
    document = out.getvalue()
    path = tmp_path / f"list.{fmt}"
    path.write_text(document, encoding="utf-8")
    got, err = io.StringIO(), io.StringIO()
    code = identify_command("chess960", ["-"], stdin=io.BytesIO(document.encode()),
                            out=got, err=err)
    assert (code, got.getvalue(), err.getvalue()) == (0, "".join(f"{i}\n" for i in ids), "")
    compared = compare_path(str(path), family)
    assert (compared.present, compared.extra_count, compared.lines) == (4, 0, 4)
    if FORMATS[fmt].fens:
        linted = lint_path(str(path))
        assert (linted.positions, linted.problems, linted.error) == (4, 0, None)


@pytest.mark.parametrize(("document", "message"), [
    ('[\n{"id": 1}\n]\n', "not a json document: expected an array of objects"),
    ("[\n{oops\n", "not a json document: it is not JSON"),
    ("id,rank\n0,BBQNNRKR\n", "not a csv document: its header 'id,rank' names no fen column"),
])
def test_a_document_not_in_its_format_is_one_error(document: str, message: str) -> None:
    from solver.cli.commands import identify_command

    got, err = io.StringIO(), io.StringIO()
    code = identify_command("chess960", ["-"], stdin=io.BytesIO(document.encode()),
                            out=got, err=err)
    assert code == 1 and got.getvalue() == ""
    assert err.getvalue() == f"error: cannot read '-': {message}" + err.getvalue().split(
        message, 1)[1]
    assert err.getvalue().count("\n") == 1


# -- numberings: the built-in ones (classes) and every bundled family's declared ones --------


def _numbering_rows() -> set[tuple[str, str]]:
    """(family, numbering) of the numberings reference's table (``*``: every family)."""
    text = _section(docs_text.page(docs_text.NUMBERINGS), "numberings")
    rows = re.findall(r"^\| ([^|`]+?) \| `([a-z0-9-]+)`", text, flags=re.MULTILINE)
    return {("*" if family.startswith("every family") else family, name)
            for family, name in rows}


def _numberings() -> list[tuple[str, str]]:
    from solver.numbering.schemes import BUILTINS
    from solver.ruleset.reader import bundled_names, load

    declared = [(n, spec.name) for n in bundled_names() for spec in load(n).numberings]
    return [("*", name) for name in BUILTINS] + declared


def _numbering_lacks(family: str, name: str, rows: set[tuple[str, str]]) -> list[str]:
    import registry_examples as ex

    missing = []
    if (family, name) not in rows:
        missing.append(f"a row | {family} | `{name}` | ... | in docs/reference/numberings.md's "
                       "table in #numberings")
    test = ex.NUMBERING_TESTS.get((family, name))
    if test is None:
        missing.append("a test proving it against its source, named in "
                       "tests/registry_examples.py NUMBERING_TESTS")
    else:
        path, _, function = test.partition("::")
        source = Path(__file__).resolve().parents[1] / path
        if f"def {function}(" not in source.read_text(encoding="utf-8"):
            missing.append(f"the test {test} (not found)")
    return missing


def test_every_numbering_is_documented_and_proven_by_a_test() -> None:
    import registry_examples as ex

    from solver.numbering.schemes import BUILTINS

    rows = _numbering_rows()
    numberings = _numberings()
    lacking = {f"{f}/{n}": _numbering_lacks(f, n, rows) for f, n in numberings}
    assert {k: m for k, m in lacking.items() if m} == {}
    assert set(ex.NUMBERING_TESTS) <= set(numberings), "a test of a numbering no longer declared"
    for name, builtin in BUILTINS.items():
        assert builtin.name == name and builtin.help and builtin.doc == "numberings"


def test_the_light_table_of_document_heads_is_the_registry_s() -> None:
    """solver.documents.HEADS tells a document from a list of lines without
    importing the writers: it must say each format's ``head``, in order."""
    from solver.documents import HEADS

    heads = {name: kind.head for name, kind in FORMATS.items() if kind.head is not None}
    assert {n: h for n, h in heads.items() if HEADS.get(n) != h} == {}, \
        "copy each format's head into solver.documents.HEADS"
    assert list(HEADS.items()) == list(heads.items())

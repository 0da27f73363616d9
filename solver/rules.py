"""Rule sets as data: reading ``rules/*.toml`` into a frozen :class:`RuleSet`.

Loading goes tomllib → validation → frozen dataclass. Nothing in a rule file
is executed: its strings are only compared with the fixed vocabulary in
:mod:`solver.vocabulary`. Every error names the file and the key, with "did
you mean" for near misses. The format is documented in ``rules/README.md``.

Errors name keys as dotted paths: ``files``, ``numbering.steps[2]``,
``rule[3].pieces`` (``[[rule]]`` tables and steps are counted from 1).
"""

from __future__ import annotations

import re
import tomllib
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, replace
from math import isqrt
from pathlib import Path
from typing import Any, Final, Literal

from solver.board import MAX_FILES, MIN_FILES, PIECE_NAMES
from solver.errors import RuleFileError, UnknownRuleSetError
from solver.numbering import Numbering, Step, StepSyntaxError, default_steps, parse_steps
from solver.vocabulary import Context, OnFiles, Rule, inexact, read_rule, suggest, type_name

Sides = Literal["mirror", "independent"]
NumberingKind = Literal["arithmetic", "enumerated"]

#: Published formulas a family may name as the reference its numbering must match.
REFERENCES: Final = ("scharnagl",)

#: Largest rule file read, in bytes.
MAX_FILE_BYTES: Final = 1_000_000

_TOP_KEYS: Final = ("name", "title", "source", "files", "pieces", "count", "sides",
                    "variant", "benchmark", "rule", "numbering")
_NUMBERING_KEYS: Final = ("steps", "kind", "reference")
_NAME_RE: Final = re.compile(r"[a-z0-9][a-z0-9-]{0,39}")
_LINE_RE: Final = re.compile(r"at line (\d+)")


@dataclass(frozen=True)
class RuleSet:
    """A start-position family, as declared in a rule file."""

    name: str
    title: str
    source: str
    files: int
    pieces: str
    count: int
    rules: tuple[Rule, ...]
    steps: tuple[str, ...]
    numbering: NumberingKind
    sides: Sides = "mirror"
    reference: str | None = None
    variant: str | None = None
    benchmark: bool = False
    path: str = "<memory>"

    @property
    def side_count(self) -> int:
        """How many ranks one side has (``count``, or its square root).

        >>> load("dfrc").side_count
        960
        """
        if self.sides == "mirror":
            return self.count
        return isqrt(self.count)

    @property
    def piece_counts(self) -> Counter[str]:
        return Counter(self.pieces)

    def allowed_files(self) -> dict[str, frozenset[int]]:
        """Files each piece may stand on, from the ``on-files`` kinds of rule."""
        allowed: dict[str, frozenset[int]] = {}
        for rule in self.rules:
            if isinstance(rule, OnFiles):
                mine = frozenset(f for f in range(self.files) if rule.allowed(f))
                allowed[rule.piece] = allowed.get(rule.piece, mine) & mine
        return allowed

    def step_numbering(self) -> Numbering:
        """The numbering by this family's placement steps (without enumeration)."""
        return Numbering(self.files, self.pieces, self.steps, self.allowed_files(), self.name)


def rules_dir() -> Path:
    """The directory of the bundled rule files.

    Inside an installed wheel they sit in the package (``solver/rules``); in a
    source checkout or an editable install, beside it (``rules/``).
    """
    here = Path(__file__).resolve().parent
    packaged = here / "rules"
    if packaged.is_dir():
        return packaged
    return here.parent / "rules"


def bundled_names() -> list[str]:
    """The names of the bundled families, sorted.

    >>> "chess960" in bundled_names()
    True
    """
    return sorted(p.stem for p in rules_dir().glob("*.toml"))


def load(name_or_path: str) -> RuleSet:
    """Load a bundled family by name, or a rule file by path.

    >>> load("chess960").count
    960
    """
    bundled = rules_dir() / f"{name_or_path}.toml"
    if _NAME_RE.fullmatch(name_or_path) and bundled.is_file():
        return load_file(bundled, display=f"rules/{bundled.name}")
    path = Path(name_or_path)
    if path.suffix == ".toml" or path.is_file() or "/" in name_or_path:
        return load_file(path)
    known = bundled_names()
    raise UnknownRuleSetError(name_or_path, suggest(name_or_path, known), known)


def load_file(path: Path, display: str | None = None) -> RuleSet:
    """Read and validate one rule file."""
    shown = display or str(path)
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise RuleFileError(shown, f"cannot read: {exc.strerror or exc}") from None
    if len(data) > MAX_FILE_BYTES:
        raise RuleFileError(shown, f"larger than {MAX_FILE_BYTES:,} bytes")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RuleFileError(shown, f"not UTF-8 text (byte {exc.start})") from None
    return parse(text, shown)


def parse(text: str, path: str = "<string>") -> RuleSet:
    """Read a rule set from TOML text; ``path`` names it in errors."""
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        found = _LINE_RE.search(str(exc))
        line = int(found.group(1)) if found else None
        reason = str(exc)
        raise RuleFileError(path, f"invalid TOML: {reason[:1].lower()}{reason[1:]}",
                            line=line) from None
    return _validate(doc, path)


def _err(path: str, key: str, message: str, suggestion: str | None = None) -> RuleFileError:
    return RuleFileError(path, message, key, suggestion)


def _required(doc: Mapping[str, Any], key: str, kind: type, path: str) -> Any:
    if key not in doc:
        raise _err(path, key, "missing")
    value = doc[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        expected = type_name(kind())
        article = "an" if expected[0] in "aeiou" else "a"
        raise _err(path, key, f"expected {article} {expected}, got {type_name(value)} {value!r}")
    return value


def _validate(doc: Mapping[str, Any], path: str) -> RuleSet:
    for key in doc:
        if key not in _TOP_KEYS:
            raise _err(path, key, f"unknown key {key!r}", suggest(key, _TOP_KEYS))
    name = _required(doc, "name", str, path)
    if not _NAME_RE.fullmatch(name):
        raise _err(path, "name", f"{name!r} is not a short lower-case name like 'chess960'")
    title = _required(doc, "title", str, path)
    source = _required(doc, "source", str, path)
    files = _required(doc, "files", int, path)
    if not MIN_FILES <= files <= MAX_FILES:
        raise _err(path, "files", f"{files} is not in {MIN_FILES}..{MAX_FILES}")
    pieces = _pieces(_required(doc, "pieces", str, path), files, path)
    count = _required(doc, "count", int, path)
    if count < 0:
        raise _err(path, "count", f"{count} is negative")
    sides = doc.get("sides", "mirror")
    if sides not in ("mirror", "independent"):
        raise _err(path, "sides", f"expected 'mirror' or 'independent', got {sides!r}",
                   suggest(str(sides), ["mirror", "independent"]))
    if sides == "independent" and isqrt(count) ** 2 != count:
        raise _err(path, "count", f"{count} is not a square, but with independent sides "
                                  "the count is one side's count squared")
    variant = doc.get("variant")
    if variant is not None and not isinstance(variant, str):
        raise _err(path, "variant", f"expected a string, got {type_name(variant)} {variant!r}")
    benchmark = doc.get("benchmark", False)
    if not isinstance(benchmark, bool):
        raise _err(path, "benchmark",
                   f"expected a boolean, got {type_name(benchmark)} {benchmark!r}")

    tables = doc.get("rule", [])
    if not isinstance(tables, list):
        raise _err(path, "rule", f"expected an array of tables, got {type_name(tables)}: "
                                 "write [[rule]]")
    counts = Counter(pieces)
    rules = tuple(
        read_rule(table, Context(path, i, files, counts)) for i, table in enumerate(tables, 1)
    )

    numbering = doc.get("numbering", {})
    if not isinstance(numbering, dict):
        raise _err(path, "numbering", f"expected a table, got {type_name(numbering)}: "
                                      "write [numbering]")
    for key in numbering:
        if key not in _NUMBERING_KEYS:
            raise _err(path, f"numbering.{key}", f"unknown key {key!r}",
                       suggest(key, _NUMBERING_KEYS))
    steps, parsed = _steps(numbering, pieces, path)
    kind = numbering.get("kind")
    if kind is not None and kind not in ("arithmetic", "enumerated"):
        raise _err(path, "numbering.kind", f"expected 'arithmetic' or 'enumerated', got {kind!r}",
                   suggest(str(kind), ["arithmetic", "enumerated"]))
    reference = numbering.get("reference")
    if reference is not None and reference not in REFERENCES:
        raise _err(path, "numbering.reference", f"unknown reference {reference!r}",
                   suggest(str(reference), REFERENCES))
    ruleset = RuleSet(
        name=name, title=title, source=source, files=files, pieces=pieces, count=count,
        rules=rules, steps=steps, numbering="enumerated", sides=sides, reference=reference,
        variant=variant, benchmark=benchmark, path=path,
    )
    if kind == "enumerated":
        return ruleset
    why = _not_arithmetic(ruleset, parsed, "steps" in numbering)
    if why is None:
        return replace(ruleset, numbering="arithmetic")
    if kind == "arithmetic":
        raise _err(path, "numbering.kind", f"'arithmetic' needs placement steps that place "
                                           f"exactly the family's ranks, but {why}; "
                                           "use 'enumerated'")
    return ruleset


def _not_arithmetic(ruleset: RuleSet, steps: tuple[Step, ...], declared: bool) -> str | None:
    """Why the family's placement steps cannot number it without enumeration."""
    if not declared:
        return "no numbering.steps are declared"
    why = inexact(ruleset.rules, steps)
    if why is not None:
        return why
    return ruleset.step_numbering().uneven


def _pieces(value: str, files: int, path: str) -> str:
    letters = value.replace(" ", "").upper()
    for char in letters:
        if char not in PIECE_NAMES:
            raise _err(path, "pieces", f"unknown piece {char!r} in {value!r}; "
                                       f"pieces are {''.join(PIECE_NAMES)}")
    if len(letters) != files:
        raise _err(path, "pieces", f"{value!r} has {len(letters)} pieces for {files} files")
    if letters.count("K") != 1:
        raise _err(path, "pieces", f"{value!r} must have exactly one king")
    return letters


def _steps(
    numbering: Mapping[str, Any], pieces: str, path: str
) -> tuple[tuple[str, ...], tuple[Step, ...]]:
    raw = numbering.get("steps")
    if raw is None:
        texts = default_steps(pieces)
        return texts, parse_steps(texts, pieces)
    if not isinstance(raw, list) or not all(isinstance(s, str) for s in raw) or not raw:
        raise _err(path, "numbering.steps", f"expected a non-empty array of strings, got {raw!r}")
    try:
        parsed = parse_steps(raw, pieces)
    except StepSyntaxError as exc:
        raise _err(path, f"numbering.steps[{exc.index + 1}]", str(exc)) from None
    return tuple(raw), parsed

"""Dialects, variants and side relations are classes in registries, looked up by name.

Every dialect reads back what it writes: for each dialect, each variant it
can write and each family it can write it for, the FEN written for an ID is
read back to the same ID (``id``), and ``lint`` counts it as a start
position with no problem.
"""

from __future__ import annotations

import re
from functools import cache

import pytest
from profiles import sample
from registry_examples import DIALECT_EXAMPLES, VARIANT_EXAMPLES
from typer.testing import CliRunner

from solver.board.geometry import Layout
from solver.board.sides import INDEPENDENT, MIRROR, ROTATE, SIDES, Sides, side_relation
from solver.cli.app import app
from solver.errors import DialectError
from solver.family import Family
from solver.lists.lint import lint_text
from solver.notation.dialects import (
    DIALECTS,
    VARIANTS,
    check_style,
    default_variant,
    read_fen,
    start_fen,
)
from solver.ruleset.reader import RuleSet, bundled_names, load

# The read-back of every dialect, variant and family, and the command line's runs:
# the default run takes a sample of each list (profiles.sample), CI's slow step the
# rest; the registries' own checks run by default.

runner = CliRunner()

# -- side relations -----------------------------------------------------------------


def test_every_rule_file_relation_is_a_registered_class() -> None:
    for name, relation in SIDES.items():
        assert isinstance(relation, Sides) and relation.name == name == str(relation)
        assert side_relation(name) is relation
    with pytest.raises(KeyError):
        side_relation("rotated")


def test_families_carry_their_relation_object() -> None:
    assert Family.load("chess960").sides == MIRROR
    assert Family.load("dfrc").sides == INDEPENDENT
    assert Family.load("chess99-random").sides == ROTATE
    assert load("horde960").sides.fixed_white


def test_a_layout_takes_a_relation_or_its_name() -> None:
    assert Layout(8, sides="rotate") == Layout(8, sides=ROTATE)
    assert Layout(8, sides="rotate").sides is ROTATE


@pytest.mark.parametrize("name", list(SIDES))
def test_black_squares_answer_white_s(name: str) -> None:
    relation = SIDES[name]
    for f in range(8):
        f2, r2 = relation.black_square((f, 1), 8, 8)
        if name in ("rotate", "independent-rotate"):  # point symmetry through the centre
            assert (f2, r2) == (7 - f, 8)
        elif name == "mirror-files":  # same rank, reflected left to right
            assert (f2, r2) == (7 - f, 1)
        else:  # reflected across the middle rank
            assert (f2, r2) == (f, 8)


def test_counts_and_ids_of_pairs() -> None:
    for relation in SIDES.values():  # a pair of ranks, or one rank
        assert relation.pair_count(960) == (960 * 960 if relation.independent else 960)
    assert INDEPENDENT.pair_id(518, 105, 960) == 518 * 960 + 105  # White's id first
    assert MIRROR.pair_id(518, 518, 960) == 518
    assert INDEPENDENT.count_problem(960) is not None and MIRROR.count_problem(960) is None
    dfrc = Family.load("dfrc")
    assert dfrc.count == dfrc.sides.pair_count(960) == 960 * 960


# -- dialects and variants ----------------------------------------------------------


def test_registries_list_what_the_command_line_takes() -> None:
    assert next(iter(DIALECTS)) == "xfen"  # the default first
    for name, dialect in DIALECTS.items():
        assert dialect.name == name
    for name, variant in VARIANTS.items():
        assert variant.name == name


@cache
def _rules(name: str) -> RuleSet:
    """Each rule file read once while the cases are listed (for every pair of
    dialect and variant: at collection, in every worker)."""
    return load(name)


FAMILIES = [n for n in bundled_names() if _rules(n).layout.standard]


@cache
def _family(name: str) -> Family:
    """Each family loaded once (numbering an enumerated family takes a while)."""
    return Family.load(name)


def _ids(family: Family) -> list[int]:
    n = family.count
    return sorted({0, n // 7, n // 2, n - 1})


def _written(name: str, dialect: str, variant: str | None) -> bool:
    """Whether ``dialect`` writes ``variant`` for the family ``name``, and
    the family's ID can be read back from it."""
    ruleset = _rules(name)
    try:
        if variant is not None or not DIALECTS[dialect].plain:
            check_style(variant or default_variant(ruleset.files), dialect, ruleset.files)
    except DialectError:
        return False
    # Horde writes Black's rank alone: a pair of ranks cannot be read back from it.
    return not (variant == "horde" and ruleset.sides.independent)


CASES = [(name, dialect, variant) for name in FAMILIES for dialect in DIALECTS
         for variant in [None, *VARIANTS] if _written(name, dialect, variant)]


def test_every_dialect_and_variant_is_read_back_somewhere() -> None:
    assert {d for _, d, _ in CASES} == set(DIALECTS)
    assert {v for _, _, v in CASES} == {None, *VARIANTS}


@pytest.mark.parametrize(("name", "dialect", "variant"), sample(CASES, 8))
def test_what_each_dialect_writes_id_and_lint_read_back(
    name: str, dialect: str, variant: str | None
) -> None:
    family = _family(name)
    for number in _ids(family):
        position = family.position(number)
        fen = start_fen(position.white, position.black, variant=variant, dialect=dialect)
        plain = fen if variant is None else read_fen(fen, variant, dialect)
        assert family.identify(plain).id == number, fen
        report = lint_text(fen, "book", dialect=dialect, variant=variant)
        assert (report.positions, report.problems) == (1, 0), (fen, list(report.lines()))


@pytest.mark.parametrize(("variant", "dialect", "fen"), sample([
    ("seirawan", "fsf", "qnrbbnkr/pppppppp/8/8/8/8/PPPPPPPP/QNRBBNKR[EHeh] w "
                        "HCABDEFGhcabdefg - 0 1"),
    ("seirawan", "pychess", "qnrbbnkr/pppppppp/8/8/8/8/PPPPPPPP/QNRBBNKR[HEhe] w "
                            "KQDEABFkqdeabf - 0 1"),
    ("bughouse", "pychess", "qnrbbnkr/pppppppp/8/8/8/8/PPPPPPPP/QNRBBNKR[] w CHch - 0 1 | "
                            "qnrbbnkr/pppppppp/8/8/8/8/PPPPPPPP/QNRBBNKR[] w CHch - 0 1"),
    ("horde", "pychess", "qnrbbnkr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP "
                         "w ch - 0 1"),
    ("antichess", "lichess", "qnrbbnkr/pppppppp/8/8/8/8/PPPPPPPP/QNRBBNKR w - - 0 1"),
    ("3check", "xfen", "qnrbbnkr/pppppppp/8/8/8/8/PPPPPPPP/QNRBBNKR w KQkq - 3+3 0 1"),
], 2))
def test_the_command_line_reads_back_a_variant_s_fen(variant: str, dialect: str,
                                                     fen: str) -> None:
    result = runner.invoke(app, ["id", "--variant", variant, "--dialect", dialect, fen])
    assert (result.exit_code, result.stdout) == (0, "105\n")
    result = runner.invoke(app, ["id", "--variant", variant, "--dialect", dialect, "-f", "fen",
                                 fen])
    assert (result.exit_code, result.stdout) == (0, fen + "\n")
    result = runner.invoke(app, ["lint", "--variant", variant, "--dialect", dialect],
                           input=fen + "\n")
    assert result.exit_code == 0
    assert result.stdout == "-: 1 start position, 0 problems\n"


def test_a_variant_s_castling_is_checked_and_fixed_as_its_dialect_writes_it() -> None:
    wrong = "qnrbbnkr/pppppppp/8/8/8/8/PPPPPPPP/QNRBBNKR w KQ - 0 1"
    report = lint_text(wrong, "book", fix="shredder", dialect="fsf", variant="antichess")
    assert report.problems == 1
    assert report.fixed == "qnrbbnkr/pppppppp/8/8/8/8/PPPPPPPP/QNRBBNKR w - - 0 1"
    # Without the variant, antichess's empty field is a missing right, as before.
    plain = lint_text("qnrbbnkr/pppppppp/8/8/8/8/PPPPPPPP/QNRBBNKR w - - 0 1", "book")
    assert plain.problems == 1


def test_bad_names_keep_their_messages() -> None:
    with pytest.raises(DialectError, match="unknown variant 'racingkings'; variants are "
                                           + re.escape(", ".join(VARIANTS))):
        read_fen("8/8 w - -", "racingkings")
    with pytest.raises(DialectError, match="unknown dialect 'uci'; dialects are "
                                           + re.escape(", ".join(DIALECTS))):
        start_fen("RNBQKBNR", variant="chess", dialect="uci")
    result = runner.invoke(app, ["id", "--variant", "nope", "518"])
    assert result.exit_code == 2  # a usage error (issue 27 item 16)
    assert f"nvalid value for '--variant': 'nope' is not one of {', '.join(VARIANTS)}" in " ".join(
        result.stderr.replace("│", " ").split())


# -- each entry against its program's own example (tests/registry_examples.py) ----------


@pytest.mark.parametrize("dialect", sorted(DIALECT_EXAMPLES))
def test_each_dialect_writes_and_reads_its_program_s_fen(dialect: str) -> None:
    variant, fen = DIALECT_EXAMPLES[dialect]
    assert start_fen("QNRBBNKR", variant=variant, dialect=dialect) == fen
    plain = fen if variant is None else read_fen(fen, variant, dialect)
    assert _family("chess960").identify(plain).id == 105


@pytest.mark.parametrize("variant", sorted(VARIANT_EXAMPLES))
def test_each_variant_writes_and_reads_its_program_s_fen(variant: str) -> None:
    dialect, fen, name, rank = VARIANT_EXAMPLES[variant]
    assert start_fen(rank, variant=variant, dialect=dialect) == fen
    assert _family(name).identify(read_fen(fen, variant, dialect)).white == rank


def test_a_document_past_its_bound_is_refused_in_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    from solver import documents
    from solver.errors import InputFileError

    monkeypatch.setattr(documents, "MAX_DOCUMENT", 1000)
    body = b"[\n" + b'{"id": 518, "fen": "8/8 w - - 0 1"},\n' * 100 + b"]\n"
    with pytest.raises(InputFileError, match="JSON document longer than"):
        documents.position_stream(io.BytesIO(body), "-")


def test_a_first_line_past_the_line_bound_is_left_to_the_line_reader() -> None:
    import io

    from solver import documents
    from solver.lines import MAX_LINE

    body = b"R" * (MAX_LINE + 5) + b"\nQNRBBNKR\n"
    stream = documents.position_stream(io.BytesIO(body), "-")
    assert stream.read() == body

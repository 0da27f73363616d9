"""The Python API in the consistency matrix: it answers as the command does.

For every bundled family (sampled ids: the first, the last and a few drawn
with a fixed seed), every dialect and every variant (``None``: the family's
own game; the lists from :mod:`matrix_support`'s registries):

* ``Family.position(i).fen(d, v)`` is what ``chess960 position i -r F
  --format fen --dialect d --variant v`` writes; where the command refuses the
  combination with an ``error:`` line, the API raises a
  :class:`~solver.errors.DialectError` saying the same (and the other way round);
* ``Position.epd(d, v, id=...)`` is ``--format epd``'s line;
* what the API wrote reads back to the id: ``Family.id``, ``chess960 id -r F``,
  :func:`solver.which` (the family with the id), and ``lint -r F`` finds the EPD sound;
* ``Family.random(n, seed=s)`` draws the ids ``chess960 random -r F -n n --seed s`` draws;
* ``repr(Family)`` states the count ``chess960 solve --count -r F`` prints
  (the count ``chess960 rules`` lists, for the families too big to count here).

The default run checks a sample (:func:`profiles.sample`) and a few
hypothesis examples; the whole product is ``@pytest.mark.slow``.
"""

from __future__ import annotations

import json
import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from matrix_support import STYLES, VARIANTS, cli, family
from profiles import examples, sample

from solver import Chess960Error, which
from solver.errors import DialectError
from solver.ruleset.reader import bundled_names

FAMILIES = bundled_names()
SEED = "api-matrix"
#: Families small enough for ``solve --count`` in the default run's time.
COUNT_MAX = 6_000


def ids_of(name: str) -> list[int]:
    """The family's sampled ids: the first, the last and three drawn with a fixed seed."""
    count = family(name).count
    drawn = random.Random(f"{SEED} {name}").sample(range(count), min(3, count))
    return list(dict.fromkeys([0, count - 1, *drawn]))


def _style_args(dialect: str, variant: str | None) -> list[str]:
    return ["--dialect", dialect] + ([] if variant is None else ["--variant", variant])


def _meaning(message: str, name: str) -> str:
    """An error's message with its subject left out: the command names the
    family (``dfrc starts on...``, ``a dfrc position``), a position its ranks."""
    message = re.sub(r"; use [a-z, ]+$", "", message.replace(name, "the position"))  # formats
    return re.sub(r"\ba [A-Za-z0-9 ]+ position\b", "a position", message)


def api_fen(name: str, number: int, dialect: str, variant: str | None,
            counters: bool = True) -> tuple[str | None, str | None]:
    """The API's FEN, or the message of the :class:`DialectError` it raised."""
    try:
        return family(name).position(number).fen(dialect, variant, counters=counters), None
    except DialectError as exc:
        return None, str(exc)


def check_fen(name: str, number: int, dialect: str, variant: str | None) -> str | None:
    """Assert the API writes (or refuses) what the command does; the FEN written."""
    args = ["position", str(number), "-r", name, "--format", "fen", *_style_args(dialect, variant)]
    out, err, code = cli(*args)
    fen, refused = api_fen(name, number, dialect, variant)
    where = (name, number, dialect, variant)
    if fen is not None:
        assert (out, err, code) == (fen + "\n", "", 0), where
        return fen
    assert code == 1 and out == "" and err.count("\n") == 1 and err.startswith("error: "), \
        (where, err, refused)
    assert refused is not None and _meaning(err[7:-1], name) == _meaning(refused, name), \
        (where, err, refused)
    return None


def check_read_back(name: str, number: int, fen: str, dialect: str = "xfen",
                    variant: str | None = None) -> None:
    """The API's FEN reads back to its id with the command's ``--dialect`` and
    ``--variant``; without them, ``Family.id`` and ``chess960 id -r F`` agree
    (the id, or both refuse: a variant's FEN may drop what the family's needs)."""
    where = (name, number, dialect, variant, fen)
    assert cli("id", "-r", name, *_style_args(dialect, variant), fen) == \
        (f"{number}\n", "", 0), where
    out, err, code = cli("id", "-r", name, fen)
    try:
        read: int | None = family(name).id(fen)
    except Chess960Error as exc:
        read = None
        assert code == 1 and err == f"error: {exc}\n", (where, err, exc)
    if read is not None:
        assert (out, code) == (f"{read}\n", 0) and read == number, (where, read, out, err)


def check_which(name: str, number: int, fen: str) -> None:
    found = {(m.family, m.id) for m in which(fen).families}
    assert (name, number) in found, (name, number, fen, found)


def check_epd(name: str, number: int, dialect: str, variant: str | None) -> None:
    """``Position.epd`` is ``--format epd``'s line, and ``id``/``lint`` read it back."""
    args = ["position", str(number), "-r", name, "--format", "epd", *_style_args(dialect, variant)]
    out, err, code = cli(*args)
    try:
        epd = family(name).position(number).epd(dialect, variant, id=f"{name} {number}")
    except DialectError as exc:
        assert code == 1 and err.startswith("error: ") and err.count("\n") == 1, (name, err)
        assert _meaning(err[7:-1], name) == _meaning(str(exc), name), (name, err, exc)
        return
    assert (out, code) == (epd + "\n", 0), (name, number, dialect, variant)
    check_read_back(name, number, epd, dialect, variant)
    assert cli("id", "-r", name, *_style_args(dialect, variant), "-", stdin=out)[::2] == \
        (f"{number}\n", 0), (name, number, dialect, variant)
    style = [] if variant is None else _style_args(dialect, variant)  # as test_matrix lints
    linted = cli("lint", "-r", name, *style, "-", stdin=out)
    assert linted[2] == 0, (name, number, dialect, variant, linted)


def _cells(names: list[str], keep: int = 2) -> list[object]:
    """``(name, full)``: the default run a few families at their first id,
    the slow step every family at every sampled id."""
    picked = [c for c in sample(names, keep) if not hasattr(c, "marks")]  # a list: every
    # xdist worker must collect the same tests in the same order
    cases: list[object] = [pytest.param(n, False, id=f"sample-{n}") for n in picked]
    return cases + [pytest.param(n, True, id=n, marks=pytest.mark.slow) for n in names]


def _ids(name: str, full: bool) -> list[int]:
    return ids_of(name) if full else ids_of(name)[1:2]


# -- FEN and EPD, every dialect and variant ---------------------------------------------


@pytest.mark.parametrize(("name", "full"), _cells(FAMILIES))
def test_fen_is_the_command_s_and_reads_back(name: str, full: bool) -> None:
    for number in _ids(name, full):
        for variant, dialect in STYLES:
            fen = check_fen(name, number, dialect, variant)
            if fen is not None:
                check_read_back(name, number, fen, dialect, variant)
        shredder = api_fen(name, number, "shredder", None)[0]
        out, _, code = cli("position", str(number), "-r", name, "--format", "shredder")
        assert (out, code) == (f"{shredder}\n", 0), (name, number)


@pytest.mark.parametrize(("name", "full"), _cells(FAMILIES))
def test_epd_is_the_command_s_and_reads_back(name: str, full: bool) -> None:
    for number in _ids(name, full):
        for variant, dialect in STYLES:
            check_epd(name, number, dialect, variant)


@pytest.mark.parametrize(("name", "full"), _cells(FAMILIES))
def test_which_names_the_family_of_the_api_s_fens(name: str, full: bool) -> None:
    for number, dialect in [(n, d) for n in _ids(name, full) for d in ("xfen", "shredder")]:
        fen = check_fen(name, number, dialect, None)
        if fen is not None:
            check_which(name, number, fen)


@settings(max_examples=examples(15, most=300))
@given(st.data())
def test_drawn_ids_write_and_read_back_as_the_command_does(data: st.DataObject) -> None:
    name = data.draw(st.sampled_from(FAMILIES), label="family")
    number = data.draw(st.integers(0, family(name).count - 1), label="id")
    variant, dialect = data.draw(st.sampled_from(STYLES), label="style")
    fen = check_fen(name, number, dialect, variant)
    if fen is not None:
        check_read_back(name, number, fen, dialect, variant)


@pytest.mark.parametrize(("name", "full"), _cells(FAMILIES))
def test_fairy_stockfish_takes_the_api_s_fsf_fens(name: str, full: bool) -> None:
    """The oracle: pyffish's ``validate_fen`` accepts every FEN the API writes
    in Fairy-Stockfish's dialect for its variant (the family's own game: chess,
    or capablanca on ten files; a board of its own is left to test_dialects)."""
    sf = pytest.importorskip("pyffish")
    fam = family(name)
    own = {8: "chess", 10: "capablanca"}.get(fam.ruleset.files) if fam.layout.standard else None
    for number in _ids(name, full):
        for variant in [None, *VARIANTS]:
            fen, _ = api_fen(name, number, "fsf", variant)
            game = variant or own
            if fen is not None and game is not None:
                assert sf.validate_fen(fen, game, True) == 1, (name, number, variant, fen)


def test_an_independent_family_s_mirrored_pair_is_no_horde() -> None:
    """chess324's id 0 has White's rank equal to Black's: the command refuses horde
    for every chess324 position (White's rank is its own), so the API does too."""
    position = family("chess324").position(0)
    assert position.white == position.black
    with pytest.raises(DialectError, match="horde writes only Black's rank"):
        position.fen("xfen", "horde")
    assert cli("position", "0", "-r", "chess324", "-f", "fen", "--variant", "horde")[2] == 1


def test_a_position_written_in_sfen_has_no_epd() -> None:
    """``--format epd`` refuses a shogi board (SFEN has no EPD), and so does the
    API, which wrote the SFEN cut after its side to move; without counters, an
    SFEN keeps its hand field and drops its move number."""
    position = family("myshogi").position(0)
    assert cli("position", "0", "-r", "myshogi", "-f", "epd")[2] == 1
    with pytest.raises(DialectError, match="written in sfen, which epd cannot hold"):
        position.epd()
    fen = cli("position", "0", "-r", "myshogi", "-f", "fen")[0].strip()
    assert fen.endswith(" b - 1") and position.fen(counters=False) == fen[:-2]


# -- draws and counts ------------------------------------------------------------------


@pytest.mark.parametrize(("name", "full"), _cells(FAMILIES, 4))
def test_a_seeded_draw_is_the_command_s(name: str, full: bool) -> None:
    for seed, n in ((SEED, 7), ("2026", 1)):
        drawn = [p.id for p in family(name).random(n, seed=seed)]
        out, err, code = cli("random", "-r", name, "-n", str(n), "--seed", seed, "-f", "json")
        assert code == 0, err
        assert [r["id"] for r in json.loads(out)] == drawn, (name, seed)
    distinct = [p.id for p in family(name).random(5, seed=SEED, distinct=True, exclude=[0])]
    out, err, code = cli("random", "-r", name, "-n", "5", "--seed", SEED, "--distinct",
                         "-x", "0", "-f", "json")
    assert code == 0, err
    assert [r["id"] for r in json.loads(out)] == distinct and 0 not in distinct, name


def _listed_counts() -> dict[str, int]:
    out, _, code = cli("rules")
    assert code == 0
    return {line.split()[0]: int(re.findall(r"\s([\d,]+)\s+\S+$", line)[0].replace(",", ""))
            for line in out.splitlines()[1:] if line.strip()}


@pytest.mark.parametrize(("name", "full"), _cells(FAMILIES, 4))
def test_a_family_s_repr_states_the_command_s_count(name: str, full: bool) -> None:
    listed = _listed_counts()[name]
    count = listed
    if listed <= COUNT_MAX:
        out, err, code = cli("solve", "--count", "-r", name)
        assert code == 0, err
        count = int(out.replace(",", ""))
    assert count == listed
    assert repr(family(name)) == f"<Family {name!r}: {count} positions>"


def test_a_refusal_is_a_chess960_error() -> None:
    """Every refusal the matrix compares is one of the package's errors."""
    assert issubclass(DialectError, Chess960Error)

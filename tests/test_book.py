"""`chess960 book`: engine-testing books.

Expectations come from the golden Chess960 list (made from the KRN table),
Scidb's numbering as published (1..960, 960 for SP 0), the README's seed
recipe written out here (SHA-256 words, partial Fisher-Yates), and a rank's
mirror being its letters reversed.
"""

from __future__ import annotations

import hashlib
import io
import re
import unicodedata
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from solver import Family
from solver.cli.lists import book_command
from solver.errors import IdError, OptionConflictError
from solver.lists.book import book_ids, book_units, write_book

GOLDEN = [line.split()[1] for line in
          (Path(__file__).parent / "data" / "chess960.txt").read_text().splitlines()]
EPD = re.compile(r'([a-z]{8})/pppppppp/8/8/8/8/PPPPPPPP/([A-Z]{8}) w KQkq - id "(\S+) (\d+)";')


def book(**options: object) -> str:
    out = io.StringIO()
    write_book(Family.load(str(options.pop("rules", "chess960"))), out,
               str(options.pop("fmt", "epd")), **options)
    return out.getvalue()


def ranks_of(text: str) -> list[str]:
    found = []
    for line in text.splitlines():
        match = EPD.fullmatch(line)
        assert match is not None, line
        assert match.group(1) == match.group(2).lower()
        found.append(match.group(2))
    return found


def words(phrase: str) -> Iterator[int]:
    data, k = unicodedata.normalize("NFC", phrase).encode(), 0
    while True:
        block = hashlib.sha256(data + k.to_bytes(8, "big")).digest()
        yield from (int.from_bytes(block[i:i + 8], "big") for i in range(0, 32, 8))
        k += 1


def below(stream: Iterator[int], n: int) -> int:
    while (w := next(stream)) >= 2**64 - 2**64 % n:
        pass
    return w % n


def test_the_whole_family_once_in_its_own_order() -> None:
    text = book()
    assert ranks_of(text) == GOLDEN
    assert [line.rsplit(" ", 1)[1] for line in text.splitlines()][:2] == ['0";', '1";']


def test_another_numberings_order_and_numbers() -> None:
    text = book(numbering="scidb")
    # Scidb numbers 1..960, 960 standing for SP 0: its order puts SP 0 last
    assert ranks_of(text) == GOLDEN[1:] + GOLDEN[:1]
    assert text.splitlines()[-1].endswith('id "chess960 960";')
    assert ranks_of(book(numbering="scidb", ids="960,1-2")) == [GOLDEN[0], GOLDEN[1], GOLDEN[2]]


def test_a_seeded_sample_is_the_readme_recipe_drawn_distinct() -> None:
    stream, left = words("Freestyle Open 2026, round 3"), list(range(960))
    expected = []
    for i in range(5):  # partial Fisher-Yates: draw i swaps place i with one of those left
        j = i + below(stream, 960 - i)
        left[i], left[j] = left[j], left[i]
        expected.append(left[i])
    assert ranks_of(book(sample=5, seed="Freestyle Open 2026, round 3")) == \
        [GOLDEN[n] for n in expected]
    assert sorted(book_ids(Family.load("chess960"), sample=960, seed="x")) == list(range(960))


def test_pairs() -> None:
    colour = ranks_of(book(ids="0-9", pairs="colour"))
    assert colour == [rank for rank in GOLDEN[:10] for _ in range(2)]
    mirrored = ranks_of(book(pairs="mirror"))
    assert Counter(mirrored) == Counter(GOLDEN)  # every position once
    at = 0
    while at < len(mirrored):  # each next to its mirror, or alone when symmetric
        rank = mirrored[at]
        if rank[::-1] == rank:
            at += 1
            continue
        assert mirrored[at + 1] == rank[::-1], (at, rank)
        at += 2
    # chess480 holds no mirror of its ranks (the queen left of the king): no pairs
    assert list(book_ids(Family.load("chess480"), ids="0-2", pairs="mirror")) == [0, 1, 2]


@pytest.mark.parametrize("pairs", [None, "mirror", "colour"])
def test_worker_slices_are_disjoint_and_cover_the_book(pairs: str | None) -> None:
    family = Family.load("chess960")
    whole = list(book_ids(family, pairs=pairs))
    for n in (1, 2, 3, 7):
        slices = [list(book_ids(family, pairs=pairs, workers=n, worker=k))
                  for k in range(1, n + 1)]
        assert Counter(x for part in slices for x in part) == Counter(whole)
        if pairs is None:
            assert all(set(a).isdisjoint(b) for i, a in enumerate(slices) for b in slices[i + 1:])
            assert slices[0][:2] == whole[0:n + 1:n]
        if pairs == "mirror":  # a pair is never split between workers
            where = {x: k for k, part in enumerate(slices) for x in part}
            units = list(book_units(family, pairs="mirror"))
            assert sum(len(u) == 2 for u in units) > 400
            assert all(where[a] == where[b] for a, b in (u for u in units if len(u) == 2))


def test_pgn_and_fen_books() -> None:
    pgn = book(fmt="pgn", ids="518,105")
    assert pgn.count('[Variant "Chess960"]') == 2 and pgn.count('[SetUp "1"]') == 2
    assert '[FEN "qnrbbnkr/pppppppp/8/8/8/8/PPPPPPPP/QNRBBNKR w KQkq - 0 1"]' in pgn
    assert book(fmt="shredder", ids="105") == \
        "qnrbbnkr/pppppppp/8/8/8/8/PPPPPPPP/QNRBBNKR w HChc - 0 1\n"


def test_bad_options() -> None:
    family = Family.load("chess960")
    with pytest.raises(IdError, match="reversed"):
        list(book_ids(family, ids="5-3"))
    with pytest.raises(OptionConflictError):
        list(book_ids(family, ids="5", sample=3))
    with pytest.raises(OptionConflictError):
        list(book_ids(family, workers=2, worker=3))


def test_the_file_is_written_whole_or_not_at_all(tmp_path: Path) -> None:
    target = tmp_path / "frc.epd"
    target.write_text("old\n")
    out, err = io.StringIO(), io.StringIO()
    assert book_command("chess960", str(target), "epd", "xfen", numbering=None, ids="0-959,960",
                        sample=None, seed=None, pairs=None, workers=1, worker=1,
                        out=out, err=err) == 1
    assert err.getvalue().startswith("error: ") and target.read_text() == "old\n"
    assert book_command("chess960", str(target), "epd", "shredder", numbering=None, ids=None,
                        sample=None, seed=None, pairs=None, workers=1, worker=1,
                        out=out, err=err) == 0
    assert len(target.read_text().splitlines()) == 960
    assert err.getvalue().endswith(f"{target}: 960 chess960 positions\n")
    assert [p.name for p in tmp_path.iterdir()] == ["frc.epd"]


@pytest.mark.slow
def test_the_whole_dfrc_book_is_stockfishs_order(tmp_path: Path) -> None:
    target = tmp_path / "dfrc.epd"
    out, err = io.StringIO(), io.StringIO()
    assert book_command("dfrc", str(target), "epd", "xfen", numbering=None, ids=None,
                        sample=None, seed=None, pairs=None, workers=1, worker=1,
                        out=out, err=err) == 0
    with target.open() as lines:
        for k, line in enumerate(lines):
            black, _, rest = line.partition("/pppppppp/8/8/8/8/PPPPPPPP/")
            white = rest.split(" ", 1)[0]
            assert (white, black.upper()) == (GOLDEN[k // 960], GOLDEN[k % 960])
    assert k == 921_599


@pytest.mark.parametrize("name", [
    "chess324", "chess99-random", "horde960",
    *(pytest.param(name, marks=pytest.mark.slow) for name in ("racing-kings", "shogi-shuffle"))])
def test_every_path_writes_what_position_writes(name: str) -> None:
    from solver.output import PositionWriter

    family = Family.load(name)
    fmt = "fen"
    count = min(family.count, 400)
    expected = io.StringIO()
    with PositionWriter(expected, family, fmt) as writer:
        for number in range(count):
            writer.write(family.position(number))
    whole = book(rules=name, fmt=fmt)  # the whole family: from its table
    assert whole.splitlines()[:count] == expected.getvalue().splitlines()
    assert len(whole.splitlines()) == family.count
    assert book(rules=name, fmt=fmt, ids=f"0-{count - 1}") == expected.getvalue()  # one by one


def test_a_labelled_numbering_writes_its_label_as_the_epd_id() -> None:
    assert book(rules="dfrc", numbering="tcec", ids="DFRC 105:518,FRC 518").splitlines() == [
        f"{GOLDEN[518].lower()}/pppppppp/8/8/8/8/PPPPPPPP/{GOLDEN[105]} w KQkq - "
        'id "DFRC 105:518";',
        f"{GOLDEN[518].lower()}/pppppppp/8/8/8/8/PPPPPPPP/{GOLDEN[518]} w KQkq - "
        'id "FRC 518";']

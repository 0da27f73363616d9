"""Letters per family (issue 38, item 5): a family may give a built-in letter
(``A``, ``C``, ...) a piece of its own.

pychess-variants writes Chess with Different Armies' Colorbound Clobberers
with ``a`` for the FAD and ``c`` for the cardinal (bishop + knight), where this
project's built-in ``A`` is the archbishop and ``C`` the chancellor
(pychess-variants ``server/fairy/cwda.py``, ``CWDA_FAIRY_PIECES``:
``("FAD", "a", "FAD")``, ``("Cardinal", "c", "BN")``).

The brute force below counts from the pieces' moves as Betza writes them,
not from the code under test: a piece on file f of rank 1 defends a pawn on
file g of rank 2 when one of its moves goes from (f, 1) to (g, 2).
"""

from __future__ import annotations

import re
from itertools import permutations

import pytest

from solver import Family, RuleFileError
from solver.ruleset.reader import parse, rules_dir

HEAD = 'name = "my"\ntitle = "t"\nsource = "s"\nfiles = 8\ncount = 1\n'

#: One step forward from rank 1 to rank 2 of each move, by the files it crosses
#: (Betza's atoms: W (1,0), F (1,1), N (2,1); riders R, B reach rank 2 in one step).
_STEPS = {"W": {0}, "F": {1}, "N": {2}, "R": {0}, "B": {1}, "K": {0, 1}, "Q": {0, 1}}


def _defends(betza: str) -> set[int]:
    """The files away from which a piece of these atoms defends a pawn one rank ahead."""
    return set().union(*(_STEPS[atom] for atom in betza))


def _brute_count(pieces: str, moves: dict[str, str]) -> int:
    """Arrangements of ``pieces`` on rank 1 whose every pawn on rank 2 is defended."""
    count = 0
    for rank in set(permutations(pieces)):
        reach = [_defends(moves[p]) for p in rank]
        if all(any(abs(f - g) in reach[f] for f in range(8)) for g in range(8)):
            count += 1
    return count


_CHESS = {"K": "K", "Q": "Q", "R": "R", "B": "B", "N": "N"}


def _example() -> str:
    text = (rules_dir() / "README.md").read_text(encoding="utf-8")
    block = re.search(r"<!-- letters-example.*?-->\s*```toml\n(.*?)```", text, re.DOTALL)
    assert block is not None
    return block.group(1)


def test_a_declared_c_is_the_familys_cardinal() -> None:
    """rules/README.md's example: C declared a cardinal (BN) counts as the
    brute force from the cardinal's moves, not the chancellor's (RN)."""
    body = _example()
    family = Family(parse(HEAD + body, "my.toml"))
    cardinal = _brute_count("KCRRBBNN", {**_CHESS, "C": "BN"})
    chancellor = _brute_count("KCRRBBNN", {**_CHESS, "C": "RN"})
    assert cardinal != chancellor
    assert family.total() == cardinal
    assert family.names == {"C": "cardinal"}


def test_the_built_in_c_is_still_the_chancellor() -> None:
    body = _example().split("[[piece]]")[0] + '[[rule]]\nkind = "pawns-protected"\n'
    family = Family(parse(HEAD + body, "my.toml"))
    assert family.total() == _brute_count("KCRRBBNN", {**_CHESS, "C": "RN"})


def test_messages_name_the_familys_piece() -> None:
    body = 'pieces = "KARRBBNN"\n[[piece]]\nletter = "A"\nname = "fad"\nbetza = "FAD"\n'
    family = Family(parse(HEAD + body, "my.toml"))
    with pytest.raises(ValueError, match="fads"):
        family.validate("KAARBBNN")


def test_a_declared_letter_needs_its_moves_for_pawns_protected() -> None:
    body = ('pieces = "KARRBBNN"\n[[piece]]\nletter = "A"\nname = "fad"\n'
            '[[rule]]\nkind = "pawns-protected"\n')
    with pytest.raises(RuleFileError, match="how the fad 'A' captures"):
        parse(HEAD + body, "my.toml")


@pytest.mark.parametrize("letter", ["K", "P", "k"])
def test_the_king_and_the_pawn_keep_their_letters(letter: str) -> None:
    body = f'pieces = "KQRRBBNN"\n[[piece]]\nletter = "{letter}"\nname = "x"\n'
    with pytest.raises(RuleFileError, match=r"piece\[1\]\.letter: .* every family keeps"):
        parse(HEAD + body, "my.toml")


def test_unknown_letters_are_listed_once() -> None:
    body = 'pieces = "KCRRBBNX"\n[[piece]]\nletter = "C"\nname = "cardinal"\n'
    with pytest.raises(RuleFileError, match=r"pieces are KQRBNAC$"):
        parse(HEAD + body, "my.toml")

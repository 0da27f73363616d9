"""PGN: one game a position, with the tag pairs that set it up, and reading them back.

Every game has the Seven Tag Roster (``Event``, ``Site``, ``Date``,
``Round``, ``White``, ``Black``, ``Result``, unknown values as ``?``,
``????.??.??`` and ``*``), then ``Variant`` when the game has a name other
programs know, ``SetUp`` and ``FEN``, and the result ``*``.

The ``Variant`` value (:func:`pgn_variant`) is one that python-chess,
cutechess and the servers read:

* ``Chess960`` for Chess960 and for DFRC (both are played under Chess960
  rules; python-chess and lichess read ``Chess960``, fastchess writes it);
* no tag for a family whose every start keeps the kings on e1/e8 and the
  rooks on the a- and h-files (``chess324``): that is standard chess from a
  set-up position, which is what a PGN without ``Variant`` means;
* ``caparandom`` (cutechess's and pychess-variants' name) for Capablanca
  Random Chess;
* ``Horde`` and ``Racing Kings`` (python-chess's and lichess's names, which
  pychess-variants also writes for their 960 versions) for ``horde960`` and
  ``racing-kings``;
* ``Crazyhouse``, ``Atomic``, ``King of the Hill``, ``Three-check``,
  ``Antichess``, ``Horde`` (python-chess's and lichess's names, which
  pychess-variants also writes for their 960 versions), ``seirawan``
  (cutechess) and ``Bughouse960`` (pychess-variants) for ``--variant``;
* no tag, and a comment saying so, for a family no program has a name for
  (the shuffle families, ``capablanca-shuffle``, your own rule files). Such a
  family is not labelled ``Chess960``. python-chess still reads the castling
  rights of such a game from its FEN.

Tag values are escaped as PGN requires (``\\`` and ``"``), and line breaks
and other control characters are replaced by spaces, so a rule file's text
cannot break out of its tag.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from solver.notation.variants import FAMILY_TAGS, pgn_variant
from solver.output.base import MARKS, Writer, unmarked

if TYPE_CHECKING:
    from solver.position import Position
    from solver.ruleset.reader import RuleSet

__all__ = ["FAMILY_TAGS", "ROSTER", "PgnWriter", "pgn_game", "pgn_variant", "tag_value"]

#: The Seven Tag Roster with unknown values, in order.
ROSTER: Final = (("Event", "?"), ("Site", "?"), ("Date", "????.??.??"), ("Round", "?"),
                 ("White", "?"), ("Black", "?"), ("Result", "*"))

def tag_value(text: str) -> str:
    r"""``text`` made safe inside a PGN tag's quotes.

    >>> print(tag_value('say "hi"\nnow \\o/'))
    say \"hi\" now \\o/
    """
    flat = "".join(c if c.isprintable() else " " for c in text)
    return flat.replace("\\", "\\\\").replace('"', '\\"')


def pgn_game(ruleset: RuleSet, fen: str, variant: str | None = None) -> str:
    """One game: the Seven Tag Roster, the tags that set ``fen`` up, and ``*``.

    >>> from solver.ruleset.reader import load
    >>> print(pgn_game(load("chess960"),
    ...                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"))
    [Event "?"]
    [Site "?"]
    [Date "????.??.??"]
    [Round "?"]
    [White "?"]
    [Black "?"]
    [Result "*"]
    [Variant "Chess960"]
    [SetUp "1"]
    [FEN "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"]
    <BLANKLINE>
    *
    """
    tags = list(ROSTER)
    name = pgn_variant(ruleset, variant)
    if name:
        tags.append(("Variant", name))
    tags += [("SetUp", "1"), ("FEN", fen)]
    lines = [f'[{key} "{tag_value(value)}"]' for key, value in tags]
    movetext = "*"
    if name is None:
        movetext = (f"{{{ruleset.name.replace('}', ')')}: no variant name known to "
                    "python-chess, cutechess or the servers} *")
    return "\n".join([*lines, "", movetext])


def _tag_value(line: str) -> tuple[str, str] | None:
    """``(name, value)`` of one PGN tag-pair line, or None."""
    line = line.strip()
    if not (line.startswith("[") and line.endswith("]")):
        return None
    name, _, rest = line[1:-1].partition(" ")
    rest = rest.strip()
    if len(rest) < 2 or rest[0] != '"' or rest[-1] != '"':
        return None
    return name, rest[1:-1].replace('\\"', '"').replace("\\\\", "\\")


#: Where a FEN goes in a game made once (printable, so a tag keeps it as it is).
_FEN_MARK: Final = "\u2192FEN\u2190"


class PgnWriter(Writer):
    """One game a position: the Seven Tag Roster and the tags that set it up."""

    name = "pgn"
    head = r'\[\s*[A-Za-z0-9_]+\s+"'
    sfen = False
    bulk = True
    help = "one PGN game a position: Seven Tag Roster, Variant, SetUp, FEN"
    _around: tuple[str, ...] | None = None

    def write(self, position: Position) -> None:
        first = self.count == 0
        self.count += 1
        self.out.write(f"{'' if first else chr(10)}{self.game(self.fen(position))}\n")

    def game(self, fen: str) -> str:
        """:func:`pgn_game` of ``fen``: the text around its ``FEN`` tag's value
        is made once (from :func:`pgn_game` itself) and the FEN put between."""
        around = self.around()
        if around and fen.isprintable() and '"' not in fen and "\\" not in fen:
            return f"{around[0]}{fen}{around[1]}"
        return pgn_game(self.family.ruleset, fen, self.variant)

    def around(self) -> tuple[str, ...]:
        """The text of a game before its FEN and after it (``()``: each game written whole)."""
        if self._around is None:
            ruleset = self.family.ruleset
            marked = pgn_game(ruleset, _FEN_MARK, self.variant)
            head, _, tail = marked.partition(_FEN_MARK)
            self._around = (head, tail) if marked.count(_FEN_MARK) == 1 else ()
        return self._around

    def marked_line(self, black: str) -> str | None:
        fen = self.parts().marked(black, MARKS[0], MARKS[1])  # plain: as it is in a tag
        around = self.around()
        if fen is None or not around or not unmarked(around[0] + around[1]):
            return None
        return f"\n{around[0]}{fen}{around[1]}\n"

    def white_parts(self, white: str) -> tuple[str, ...] | None:
        return self.parts().white(white)

    def line_of(self, number: int, white: str, black: str) -> str | None:
        return f"\n{self.game(self.parts().fen(white, black))}\n"

    def opening(self) -> tuple[str, int]:
        return "", 1  # no blank line before the first game

    @classmethod
    def lines(cls, document: str) -> list[str]:
        """Each game's ``FEN`` tag (``lint`` reads the games themselves)."""
        found = []
        for line in document.splitlines():
            tag = _tag_value(line)
            if tag is not None and tag[0] == "FEN":
                found.append(tag[1])
        return found

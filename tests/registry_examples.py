"""One example for each entry of the registries of dialects, variants and formats,
from a source other than this project's code (tests/test_structure.py names
an entry that has none; tests/test_registries.py reads each back).

Chess960's SP 105 is ``QNRBBNKR``. The FENs were written by the programs
themselves: python-chess 1.11 (``chess.Board.from_chess960_pos(105).fen()``,
``.shredder_fen()``, ``chess.variant.CrazyhouseBoard``), pyffish 0.0.88
(``pyffish.get_fen(variant, fen, [], True)``, each variant's start FEN with
the back ranks replaced), and pychess-variants' ``FairyBoard.shuffle_start``
(transcribed in tests/test_dialects.py) for its Seirawan field. The format
documents are written from each format's definition in the README, by hand.
"""

from __future__ import annotations

from typing import Final

#: dialect -> (variant or None, the FEN of Chess960's SP 105 as the dialect's program writes it)
DIALECT_EXAMPLES: Final = {
    "xfen": (None, "qnrbbnkr/pppppppp/8/8/8/8/PPPPPPPP/QNRBBNKR w KQkq - 0 1"),
    "shredder": (None, "qnrbbnkr/pppppppp/8/8/8/8/PPPPPPPP/QNRBBNKR w HChc - 0 1"),
    "lichess": ("crazyhouse", "qnrbbnkr/pppppppp/8/8/8/8/PPPPPPPP/QNRBBNKR[] w KQkq - 0 1"),
    "fsf": ("crazyhouse", "qnrbbnkr/pppppppp/8/8/8/8/PPPPPPPP/QNRBBNKR[] w HChc - 0 1"),
    "pychess": ("seirawan",
                "qnrbbnkr/pppppppp/8/8/8/8/PPPPPPPP/QNRBBNKR[HEhe] w KQDEABFkqdeabf - 0 1"),
}

#: variant -> (dialect, its start FEN as that dialect's program writes it, family, White's rank)
VARIANT_EXAMPLES: Final = {
    "chess": ("fsf", "qnrbbnkr/pppppppp/8/8/8/8/PPPPPPPP/QNRBBNKR w HChc - 0 1",
              "chess960", "QNRBBNKR"),
    "crazyhouse": ("fsf", "qnrbbnkr/pppppppp/8/8/8/8/PPPPPPPP/QNRBBNKR[] w HChc - 0 1",
                   "chess960", "QNRBBNKR"),
    "bughouse": ("fsf", "qnrbbnkr/pppppppp/8/8/8/8/PPPPPPPP/QNRBBNKR[] w HChc - 0 1",
                 "chess960", "QNRBBNKR"),
    "atomic": ("fsf", "qnrbbnkr/pppppppp/8/8/8/8/PPPPPPPP/QNRBBNKR w HChc - 0 1",
               "chess960", "QNRBBNKR"),
    "kingofthehill": ("fsf", "qnrbbnkr/pppppppp/8/8/8/8/PPPPPPPP/QNRBBNKR w HChc - 0 1",
                      "chess960", "QNRBBNKR"),
    "3check": ("fsf", "qnrbbnkr/pppppppp/8/8/8/8/PPPPPPPP/QNRBBNKR w HChc - 3+3 0 1",
               "chess960", "QNRBBNKR"),
    "antichess": ("fsf", "qnrbbnkr/pppppppp/8/8/8/8/PPPPPPPP/QNRBBNKR w - - 0 1",
                  "chess960", "QNRBBNKR"),
    "horde": ("fsf", "qnrbbnkr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w hc - 0 1",
              "chess960", "QNRBBNKR"),
    "seirawan": ("pychess",
                 "qnrbbnkr/pppppppp/8/8/8/8/PPPPPPPP/QNRBBNKR[HEhe] w KQDEABFkqdeabf - 0 1",
                 "chess960", "QNRBBNKR"),
    "capablanca": ("fsf", "nbrkcaqnbr/pppppppppp/10/10/10/10/PPPPPPPPPP/NBRKCAQNBR w JCjc - 0 1",
                   "capablanca-random", "NBRKCAQNBR"),
}

_FEN_518: Final = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
_SHREDDER_518: Final = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1"

#: format -> a document holding Chess960's SP 518 then SP 105
FORMAT_EXAMPLES: Final = {
    "text": "518 RNBQKBNR\n105 QNRBBNKR\n",
    "json": ('[\n{"id": 518, "rank": "RNBQKBNR", "fen": "' + _FEN_518 + '", "family": '
             '"chess960"},\n{"id": 105, "rank": "QNRBBNKR", "fen": '
             '"qnrbbnkr/pppppppp/8/8/8/8/PPPPPPPP/QNRBBNKR w KQkq - 0 1"}\n]\n'),
    "csv": ("id,rank,fen,shredder_fen,family\n"
            f"518,RNBQKBNR,{_FEN_518},{_SHREDDER_518},chess960\n"
            "105,QNRBBNKR,qnrbbnkr/pppppppp/8/8/8/8/PPPPPPPP/QNRBBNKR w KQkq - 0 1,"
            "qnrbbnkr/pppppppp/8/8/8/8/PPPPPPPP/QNRBBNKR w HChc - 0 1,chess960\n"),
    "fen": f"{_FEN_518}\nqnrbbnkr/pppppppp/8/8/8/8/PPPPPPPP/QNRBBNKR w KQkq - 0 1\n",
    "shredder": f"{_SHREDDER_518}\nqnrbbnkr/pppppppp/8/8/8/8/PPPPPPPP/QNRBBNKR w HChc - 0 1\n",
    "epd": ('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - id "chess960 518";\n'
            'qnrbbnkr/pppppppp/8/8/8/8/PPPPPPPP/QNRBBNKR w KQkq - id "chess960 105";\n'),
    "pgn": ('[Event "?"]\n[Site "?"]\n[Date "????.??.??"]\n[Round "?"]\n[White "?"]\n'
            '[Black "?"]\n[Result "*"]\n[Variant "Chess960"]\n[SetUp "1"]\n'
            f'[FEN "{_FEN_518}"]\n\n*\n\n'
            '[Event "?"]\n[Variant "Chess960"]\n[SetUp "1"]\n'
            '[FEN "qnrbbnkr/pppppppp/8/8/8/8/PPPPPPPP/QNRBBNKR w KQkq - 0 1"]\n\n*\n'),
}

#: (family, numbering) -> the test that proves the numbering against its source
#: (``"*"``: a built-in numbering, every family's); a numbering declared in a
#: bundled rule file, or built in, with none is named by tests/test_structure.py.
NUMBERING_TESTS: Final = {
    ("*", "one-based"): "tests/test_numberings.py::test_one_based_is_every_familys",
    ("*", "black-major"):
        "tests/test_numberings.py::test_dfrc_position_is_white_major_and_black_major_is_kept",
    ("bishops-opposite", "scidb-shuffle"):
        "tests/test_numberings.py::test_scidb_shuffle_from_its_definition",
    ("capablanca-shuffle", "xboard"):
        "tests/test_numberings.py::test_xboard_caparandom_order_for_all_84000",
    ("chess324x16", "tcec"): "tests/test_publishers.py::test_tcec_chess324x16_every_position",
    ("chess960", "scidb"): "tests/test_publishers.py::test_scidbs_own_tables_agree",
    ("chess960", "xboard"): "tests/test_numberings.py::test_xboard_frc_numbers_are_scharnagls",
    ("chess960", "jocly"): "tests/test_digit_order.py::test_jocly_numbering_is_joclys_for_all_960",
    ("chess960", "tcec"): "tests/test_publishers.py::test_tcec_chess960_every_position",
    ("chess960", "fritz9"): "tests/test_numberings.py::test_fritz9_rests_on_one_example",
    ("dfrc", "tcec"): "tests/test_publishers.py::test_tcec_dfrc_every_position",
    ("racing-kings", "pychess"): "tests/test_numberings.py::test_pychess_racing_kings_list",
    ("metamachy", "jocly"):
        "tests/test_bundled38.py::test_metamachy_is_jocly_s_twelve_set_ups_in_jocly_s_order",
}

"""Write chess960.txt: all 960 Chess960 ranks with Scharnagl's numbers.

Independent of the package under test: this script uses only the published
rules of the numbering scheme (https://en.wikipedia.org/wiki/Fischer_random_chess_numbering_scheme):

    n = 96*N + 16*Q + 4*D + L
    L: light bishop on b, d, f, h; D: dark bishop on a, c, e, g;
    Q: the queen on the Q-th of the six free squares;
    N: knights, rooks and king on the last five squares by the KRN table.

Run ``python tests/data/make_golden.py`` to regenerate (it should never change);
``python tests/data/make_golden.py OUT`` writes the table to OUT instead
(tests/test_core.py checks that it gives chess960.txt byte for byte).
"""

import sys
from pathlib import Path

KRN = ["NNRKR", "NRNKR", "NRKNR", "NRKRN", "RNNKR",
       "RNKNR", "RNKRN", "RKNNR", "RKNRN", "RKRNN"]


def rank(n: int) -> str:
    squares = [""] * 8
    squares[(n % 4) * 2 + 1] = "B"
    squares[((n // 4) % 4) * 2] = "B"
    free = [i for i in range(8) if not squares[i]]
    squares[free.pop((n // 16) % 6)] = "Q"
    for i, piece in zip(free, KRN[n // 96], strict=True):
        squares[i] = piece
    return "".join(squares)


if __name__ == "__main__":
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).with_name("chess960.txt")
    out.write_bytes("".join(f"{n} {rank(n)}\n" for n in range(960)).encode("ascii"))

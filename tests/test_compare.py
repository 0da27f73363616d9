"""`chess960 compare`: a list of positions against a family.

The lists are built here from published tables (pychess-variants' Racing
Kings list, the golden Chess960 list made from the KRN table), edited by
hand, and the differences expected are those edits.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from solver import Family
from solver.cli.lists import compare_command
from solver.lists.compare import compare_text

DATA = Path(__file__).parent / "data"
PYCHESS = [line.strip() for line in (DATA / "pychess_racingkings.txt").read_text().splitlines()
           if line.strip() and not line.startswith("#")]
GOLDEN = [line.split()[1] for line in (DATA / "chess960.txt").read_text().splitlines()]


def fen(rank: str) -> str:
    return f"{rank.lower()}/pppppppp/8/8/8/8/PPPPPPPP/{rank} w KQkq - 0 1"


def racing(line: str) -> str:
    return f"8/8/8/8/8/8/{line} w - - 0 1"


def run(tmp_path: Path, text: str, rules: str, fmt: str = "text", limit: int = 20,
        numbering: str | None = None) -> tuple[int, str, str]:
    path = tmp_path / "list.txt"
    path.write_bytes(text.encode("utf-8"))
    out, err = io.StringIO(), io.StringIO()
    code = compare_command(str(path), rules, fmt, limit, numbering, out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def test_pychess_racing_kings_list_is_the_family_in_the_pychess_order(tmp_path: Path) -> None:
    assert len(PYCHESS) == 1440
    code, out, _ = run(tmp_path, "".join(racing(line) + "\n" for line in PYCHESS),
                       "racing-kings")
    assert code == 0
    assert out == (f"{tmp_path / 'list.txt'}: 1,440 lines: each of the 1,440 racing-kings "
                   "positions once, in the order of the numbering pychess\n")


def test_racing_kings_with_lines_deleted_added_and_repeated(tmp_path: Path) -> None:
    family = Family.load("racing-kings")
    lines = [racing(line) for line in PYCHESS]
    deleted = {17: lines[17], 600: lines[600], 1439: lines[1439]}
    kept = [line for at, line in enumerate(lines) if at not in deleted]
    foreign = [fen("RNBQKBNR"),  # a chess position, no racing-kings one
               racing("krbnNBRK/qrbnNBRK")]  # White has two kings, no queen
    edited = [*kept[:100], foreign[0], *kept[100:700], kept[5], *kept[700:], foreign[1]]
    code, out, _ = run(tmp_path, "\n".join(edited) + "\n", "racing-kings")
    assert code == 1
    name = str(tmp_path / "list.txt")
    report = out.splitlines()
    # pychess's numbering is the list's order: line k (from 0) is pychess number k
    pychess = family.scheme("pychess")
    missing_ids = sorted(pychess.read(str(at)) for at in deleted)
    assert [line for line in report if " missing " in line and "..." not in line] == [
        f"{name}: missing racing-kings {n} ({family.position(n).white})" for n in missing_ids]
    assert [family.identify(deleted[at]).id for at in sorted(deleted)] == \
        [pychess.read(str(at)) for at in sorted(deleted)]
    extra = [line for line in report if ": extra: " in line]
    assert [line.split(":")[1] for line in extra] == ["101", str(len(edited))]
    assert "is not a racing-kings" in extra[0] or "not a start position" in extra[0]
    assert "'NBRKNBRK' has 0 queens, expected 1" in extra[1]
    duplicate = [line for line in report if "duplicate of" in line]
    fifth = pychess.read("5")  # kept[5] is pychess's line 5, on line 6; repeated on line 702
    assert duplicate == [f"{name}:702: duplicate of line 6: racing-kings {fifth} "
                         f"({family.position(fifth).white})"]
    assert report[-1] == (f"{name}: 1,440 lines: 1,437 of the 1,440 racing-kings positions, "
                          "3 missing, 2 extra, 1 duplicate; in no numbering's order")


def test_any_notation_bom_crlf_comments_and_the_numbering_order(tmp_path: Path) -> None:
    rows = []
    for number, rank in enumerate(GOLDEN):
        kind = number % 4
        if kind == 0:
            rows.append(rank)
        elif kind == 1:
            rows.append(fen(rank).replace(" KQkq ", " " + _shredder(rank) + " "))
        elif kind == 2:
            rows.append(f'{fen(rank).rsplit(" ", 2)[0]} id "chess960 {number}";')
        else:
            rows.append(f"{rank} {rank.lower()}")
    text = "\ufeff# a header\r\n\r\n" + "\r\n".join(rows) + "\r\n"
    code, out, _ = run(tmp_path, text, "chess960")
    assert code == 0, out
    assert out.endswith("each of the 960 chess960 positions once, in the order of the "
                        "numberings scharnagl, xboard, tcec\n")
    # Scidb numbers 1..960, 960 standing for 0: its order puts 0 last.
    scidb = GOLDEN[1:] + GOLDEN[:1]
    code, out, _ = run(tmp_path, "\n".join(scidb), "chess960")
    assert code == 0
    assert out.endswith("in the order of the numberings scidb, one-based\n")
    code, out, _ = run(tmp_path, "\n".join(reversed(GOLDEN)), "chess960")
    assert code == 0 and out.endswith("in no numbering's order\n")


def _shredder(rank: str) -> str:
    files = "ABCDEFGH"
    king = rank.index("K")
    rooks = [f for f, p in enumerate(rank) if p == "R"]
    white = files[max(rooks)] + files[min(rooks)]
    assert min(rooks) < king < max(rooks)
    return white + white.lower()


def test_gaps_limits_and_json(tmp_path: Path) -> None:
    some = [GOLDEN[n] for n in range(0, 960, 2)]
    code, out, _ = run(tmp_path, "\n".join(some), "chess960", limit=3)
    assert code == 1
    lines = out.splitlines()
    assert lines[0].endswith("missing chess960 1 (BQNBNRKR)")
    assert lines[3].endswith("... and 477 more missing")
    assert lines[-1].endswith("480 of the 960 chess960 positions, 480 missing, 0 extra, "
                              "0 duplicates; in the order of the numberings scharnagl, xboard, "
                              "tcec, with gaps")
    code, out, _ = run(tmp_path, "\n".join([*some, GOLDEN[1], "nonsense"]), "chess960", "json",
                       numbering="scidb")
    data = json.loads(out)
    assert code == 1 and data["missing_count"] == 479 and data["present"] == 481
    assert data["missing"][0] == {"id": 3, "number": "3"}
    assert data["extra"][0]["line"] == 482 and "nonsense" in data["extra"][0]["text"]
    assert data["orders"] == []


def test_empty_and_unreadable_lists(tmp_path: Path) -> None:
    code, out, _ = run(tmp_path, "", "chess960", limit=1)
    assert code == 1 and out.splitlines()[-1].endswith(
        "0 lines: 0 of the 960 chess960 positions, 960 missing, 0 extra, 0 duplicates; "
        "in no numbering's order")
    out_, err = io.StringIO(), io.StringIO()
    assert compare_command(str(tmp_path / "none.txt"), "chess960", "text", 20, None,
                           out=out_, err=err) == 1
    assert err.getvalue().startswith("error: ") and "none.txt" in err.getvalue()
    path = tmp_path / "bad.txt"
    path.write_bytes(b"RNBQKBNR\n\xff\n")
    assert compare_command(str(path), "chess960", "text", 20, None, out=out_, err=err) == 1
    assert "line 2 is not UTF-8" in err.getvalue()


def test_library() -> None:
    found = compare_text("\n".join(GOLDEN[:10] + GOLDEN[:1]), Family.load("chess960"))
    assert list(found.missing())[:2] == [10, 11] and found.missing_count == 950
    assert [(d.line, d.first, d.id) for d in found.duplicates] == [(11, 1, 0)]
    assert found.orders == []


@pytest.mark.slow
def test_the_whole_dfrc_list_in_reasonable_time_and_memory(tmp_path: Path) -> None:
    import subprocess
    import sys

    book = tmp_path / "dfrc.epd"
    with book.open("w") as handle:
        subprocess.run([sys.executable, "-m", "solver", "solve", "--rules", "dfrc", "--format",
                        "epd"], stdout=handle, check=True)
    # The peak is the process's own (VmHWM): ru_maxrss after a vfork'd exec also
    # counts the parent's (an xdist worker's hundreds of MB under coverage).
    script = ("import re, sys; from solver.cli.lists import compare_command; "
              f"code = compare_command({str(book)!r}, 'dfrc', 'text', 20, None, "
              "out=sys.stdout, err=sys.stderr); "
              "print(re.search(r'VmHWM:\\s*(\\d+)', open('/proc/self/status').read())[1]); "
              "sys.exit(code)")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          check=False, timeout=120)
    assert done.returncode == 0, done.stderr
    summary, peak = done.stdout.splitlines()
    assert summary.endswith("921,600 lines: each of the 921,600 dfrc positions once, in the "
                            "order of the numberings scharnagl, tcec")
    assert int(peak) < 100_000  # KiB


def test_a_family_too_large_for_the_arrays_is_compared_the_same(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from solver.lists import compare

    text = "\n".join([*GOLDEN[:10], GOLDEN[3], "xx"])
    family = Family.load("chess960")
    small = list(compare_text(text, family).report(5))
    monkeypatch.setattr(compare, "ARRAY_MAX", 10)
    large = compare_text(text, family)
    assert isinstance(large.seen, dict)
    assert list(large.report(5)) == small

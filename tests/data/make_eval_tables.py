"""Write the shipped evaluation tables (solver/evaluation/data/*.csv) from the
upstream files kept beside this script in eval-upstream/ (copied byte for byte
from the repositories at the commits solver/evaluation/data/README.md names).

Independent of the package under test: it reads the upstream CSVs and writes
our table format (solver/evaluation/data/README.md) with the standard library
alone; the FEN of each row is the upstream's own (eval960's ``fen`` column;
for Chess960EvalAnalyzer the FEN its program built from the placement,
``{placement.lower()}/pppppppp/8/8/8/8/PPPPPPPP/{placement} w KQkq - 0 1``),
so tests/test_evaluation.py can check the keying against the family.

``python tests/data/make_eval_tables.py`` rewrites the tables (they should
never change); ``python tests/data/make_eval_tables.py DIR`` writes them into
DIR instead (the tests compare the two byte for byte).
"""

import csv
import gzip
import io
import json
import sys
from pathlib import Path

HERE = Path(__file__).parent / "eval-upstream"
COLUMNS = ["id", "fen", "engine", "limit", "depth", "nodes", "time", "eval", "mate",
           "wins", "draws", "losses"]


def table(rows: list[dict[str, str]]) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, COLUMNS, lineterminator="\n")
    writer.writeheader()
    for row in sorted(rows, key=lambda r: int(r["id"])):
        writer.writerow({c: row.get(c, "") for c in COLUMNS})
    return out.getvalue()


def eval960() -> str:
    text = (HERE / "eval960-results.csv").read_text("utf-8")
    rows = []
    for row in csv.DictReader(io.StringIO(text)):
        rows.append({"id": row["id"], "fen": row["fen"], "engine": row["engine"],
                     "depth": row["depth"], "nodes": row["nodes"], "time": row["time"],
                     "eval": row["eval"], "wins": row["wins"], "draws": row["draws"],
                     "losses": row["losses"]})
    return table(rows)


def evalanalyzer() -> str:
    text = (HERE / "evalanalyzer-results.csv").read_text("utf-8-sig")
    rows = []
    for index, value, placement in csv.reader(io.StringIO(text)):
        fen = f"{placement.lower()}/pppppppp/8/8/8/8/PPPPPPPP/{placement.upper()} w KQkq - 0 1"
        rows.append({"id": index, "fen": fen, "engine": "Stockfish 18", "limit": "depth 25",
                     "eval": value})
    return table(rows)


def eval960_d32() -> str:
    """eval960's depth-32 run (``stockfish_17_1_depth_32.jsonl`` at a78d209, kept
    gzip-compressed): one JSON object a line, ``info`` holding the last search
    line python-chess read (score and W/D/L from White's point of view)."""
    name = "eval960-d32-stockfish_17_1_depth_32.jsonl.gz"
    text = gzip.decompress((HERE / name).read_bytes()).decode("utf-8")
    rows = []
    for line in text.splitlines():
        record = json.loads(line)
        info = record["info"][-1]
        score, wdl = info["score"], info["wdl"]
        rows.append({"id": str(record["id"]), "fen": record["fen"], "engine": record["engine"],
                     "limit": "depth 32", "depth": str(info["depth"]),
                     "nodes": str(info["nodes"]), "time": str(info["time"]),
                     "eval": "" if score["cp"] is None else str(score["cp"] / 100),
                     "mate": "" if score["mate"] is None else str(score["mate"]),
                     "wins": str(wdl["win"]), "draws": str(wdl["draw"]),
                     "losses": str(wdl["loss"])})
    return table(rows)


TABLES = {"eval960.csv": eval960, "evalanalyzer.csv": evalanalyzer,
          "eval960-d32.csv": eval960_d32}

if __name__ == "__main__":
    root = Path(__file__).resolve().parents[2]
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else root / "solver" / "evaluation" / "data"
    for name, make in TABLES.items():
        (out / name).write_bytes(make().encode("ascii"))

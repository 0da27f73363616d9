"""What ``chess960 which``, ``compare``, ``book`` and ``lint`` do (:mod:`solver.lists`,
:mod:`solver.lists.lint`).

Each function is one command after its arguments are parsed: it writes its
answer to ``out``, one ``error:`` line to ``err`` for what fails, and returns
the exit code, as :mod:`solver.cli.commands` does.
"""

from __future__ import annotations

from collections.abc import Sequence

from solver.cli.errors import FAILED, report, reported
from solver.errors import Chess960Error, InputFileError

TYPE_CHECKING = False  # typing is the type checker's alone: importing it costs start-up
if TYPE_CHECKING:
    from typing import BinaryIO, TextIO

    from solver.family import Family


def _stdin_texts(stdin: BinaryIO | None) -> list[str]:
    from solver.lines import entries, read_lines

    if stdin is None:
        raise InputFileError("-", "standard input is closed")
    return [text for _, text in entries(read_lines(stdin))]


@reported
def which_command(positions: Sequence[str], rules: Sequence[str], fmt: str, *,
                  stdin: BinaryIO | None, out: TextIO, err: TextIO) -> int:
    """``chess960 which``: the families holding each position, with its numbers."""
    from solver.lists.which import Found, which_all, with_families

    families = with_families([_load(given) for given in rules])
    texts = [text for given in positions
             for text in (_stdin_texts(stdin) if given == "-" else [given])]
    code, answers = 0, []
    for answer in which_all(texts, families):
        if not isinstance(answer, Found):
            report(out, err, answer)
            code = FAILED
        elif fmt == "json":
            answers.append(answer.as_dict())
        else:
            out.write(answer.lines(heading=len(texts) > 1))
    if fmt == "json":
        import json

        out.write(json.dumps(answers, indent=2, ensure_ascii=False) + "\n")
    out.flush()
    return code


@reported
def compare_command(path: str, rules: str, fmt: str, limit: int, numbering: str | None, *,
                    out: TextIO, err: TextIO) -> int:
    """``chess960 compare``: a list against a family; exit 1 on any difference."""
    from solver.lists.compare import compare_path

    family: Family = _load(rules)
    scheme = family.scheme(numbering) if numbering is not None else None
    found = compare_path(path, family)
    if fmt == "json":
        import json

        out.write(json.dumps(found.as_dict(scheme), indent=1) + "\n")
    else:
        for line in found.report(limit or None, scheme):
            out.write(line + "\n")
    out.flush()
    return 0 if found.same else FAILED


def _load(rules: str) -> Family:
    from solver.cli.inputs import load_family

    return load_family(rules)


@reported
def book_command(rules: str, output: str | None, fmt: str, dialect: str, *,
                 numbering: str | None, ids: str | None, sample: int | None, seed: str | None,
                 pairs: str | None, workers: int, worker: int, out: TextIO, err: TextIO,
                 balanced: str | None = None, draw_rate: str | None = None,
                 eval_tables: Sequence[str] = (), preset: str | None = None) -> int:
    """``chess960 book``: an engine-testing book, to ``output`` (atomically) or stdout;
    ``balanced``, ``draw_rate``, ``preset``: only positions inside those bands and
    that named subset (:mod:`solver.evaluation.band`, said on ``err``)."""
    from solver.cli.progress import CountProgress
    from solver.lists.book import write_book

    family = _load(rules)
    excluded: list[int] = []
    if balanced is not None or draw_rate is not None or preset is not None:
        from solver.evaluation.band import restrict

        excluded = restrict(family, balanced, list(eval_tables), draw_rate, preset,
                            lambda text: err.write(f"{text}\n"))
    with CountProgress(err, "book", None if output is not None else out) as progress:
        written = write_book(family, output if output is not None else out, fmt,
                             dialect=dialect, numbering=numbering, ids=ids, sample=sample,
                             seed=seed, pairs=pairs, workers=workers, worker=worker,
                             progress=progress if family.count >= 100_000 else None,
                             exclude=excluded)
    if output is not None:
        err.write(f"{output}: {written:,} {family.name} position"
                  f"{'s' if written != 1 else ''}\n")
    return 0


@reported
def lint_command(files: Sequence[str], fix: str | None, dialect: str | None,
                 variant: str | None, rules: str | None, quiet: bool, verbose: bool,
                 numbering: str | None, complete: bool, *, out: TextIO, err: TextIO) -> int:
    """``chess960 lint``: check (or with ``fix``, rewrite) the castling fields of
    each file (``-``: stdin), and with ``rules`` each position's membership;
    findings to ``out`` (to ``err`` when the fixed stdin goes to ``out``). Exit 1
    when a field is wrong or mixed, or a file holds no position to check."""
    if not (fix or dialect or variant or rules or verbose or numbering or complete):
        plain = _plain_books(files)
        if plain is not None:  # every line a plain Chess960 start FEN: right
            for path, count in zip(files, plain, strict=True):
                _write_line(out, f"{path}: {count:,} start position{'s' if count != 1 else ''}"
                                 ", 0 problems")
            return 0
    from solver.lists.lint import Finding, lint_path

    family = None if rules is None else _load(rules)
    bad = False
    report_to = err if fix is not None and "-" in files else out
    for path in files:
        def emit(finding: Finding, path: str = path) -> None:
            where = f":{finding.line}" if finding.line else ""
            _write_line(report_to, f"{path}{where}: {finding.message}")

        try:
            linted = lint_path(path, fix, dialect, None, variant, family, verbose, emit,
                               numbering=numbering, complete=complete)
        except Chess960Error as exc:
            report(out, err, exc)
            bad = True
            continue
        for line in linted.lines(quiet):
            _write_line(report_to, line)
        if linted.error is not None:
            report_to.flush()
            report(out, err, f"{path}: {linted.error}")
        bad |= (linted.problems > 0 and fix is None) or linted.checked == 0
    return FAILED if bad else 0


def _plain_books(files: Sequence[str]) -> list[int] | None:
    """Each file's count of positions when every file is a regular one whose
    every line is a plain Chess960 start FEN
    (:func:`~solver.numbering.shortcut.plain_start_lines`), else None: the
    linter reads them."""
    from solver.numbering.shortcut import PLAIN_BYTES, plain_start_lines, read_regular

    counts = []
    for path in files:
        data = None if path == "-" else read_regular(path, PLAIN_BYTES)
        count = None if data is None else plain_start_lines(data)
        if count is None:
            return None
        counts.append(count)
    return counts


def _write_line(stream: TextIO, line: str) -> None:
    """``line`` and a line break, with what ``stream``'s encoding cannot show escaped."""
    encoding = getattr(stream, "encoding", None) or "utf-8"
    stream.write(f"{line}\n".encode(encoding, "backslashreplace").decode(encoding))

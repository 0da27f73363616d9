"""What ``chess960 verify``, ``dice``, ``audit``, ``reveal`` and ``plan --commit`` do
(:mod:`solver.draws`).

Each function is one command after its arguments are parsed: it writes its
answer to ``out``, one ``error:`` line to ``err`` when something fails, and
returns the exit code, as :mod:`solver.cli.commands` does.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from typing import BinaryIO, NamedTuple, TextIO

from solver.cli.commands import excluded_ids
from solver.cli.errors import FAILED, USAGE, report, reported
from solver.draws.inputs import draw_file_kind, read_draw_text
from solver.errors import CertificateError


class Revealed(NamedTuple):
    """What ``verify`` checks a commitment's round with: ``--round``,
    ``--position``, and the seed (``--seed``, or the sealed file ``--sealed``),
    or the round's ``--sub-seed`` and the ``--earlier`` rounds' positions (or
    ``--sub-seed`` once a round, rounds 1 to K)."""

    round: int | None = None
    position: str | None = None
    seed: str | None = None
    sealed: str | None = None
    sub_seed: Sequence[str] | None = None
    earlier: str | None = None

    def given(self) -> list[str]:
        """The options given, as the command line names them."""
        return [f"--{key.replace('_', '-')}" for key, value in self._asdict().items()
                if value is not None]


def _verify_sub_seed(text: str, name: str, rules: str | None, revealed: Revealed,
                     out: TextIO, err: TextIO) -> int:
    """``chess960 verify COMMIT --round K --position ID --sub-seed HEX [--earlier IDS]``
    (or ``--sub-seed`` K times): the line verified on ``out``, or a usage error."""
    from solver.draws.seal import read_commitment, verify_sub_seed

    commitment = read_commitment(text, name)
    if revealed.seed is not None or revealed.sealed is not None:
        report(out, err, "give the seed (--seed, --sealed) or a round's --sub-seed, not both")
        return USAGE
    missing = [option for option, value in (("--round K", revealed.round),
                                            ("--position ID", revealed.position))
               if value is None]
    if revealed.round is not None and revealed.round > 1 and revealed.earlier is None \
            and revealed.sub_seed is not None and len(revealed.sub_seed) == 1:
        missing.append(f"the positions of rounds 1 to {revealed.round - 1} (--earlier IDS), "
                       f"or the sub-seeds of rounds 1 to {revealed.round}")
    if missing or revealed.round is None or revealed.position is None \
            or revealed.sub_seed is None:
        report(out, err, f"a round is verified with its sub-seed and the earlier rounds' "
                         f"positions: give {', '.join(missing)}")
        return USAGE
    earlier = () if revealed.earlier is None else (revealed.earlier,)
    line = verify_sub_seed(commitment, revealed.round, revealed.position, revealed.sub_seed,
                           earlier, name, rules)
    out.write(f"{name}: verified {line}\n")
    return 0


def _verify_round(text: str, name: str, rules: str | None, revealed: Revealed,
                  stdin: BinaryIO | None, out: TextIO, err: TextIO) -> int:
    """``chess960 verify COMMIT --round K --position ID`` (with the seed, or the
    round's sub-seed): the line verified on ``out``, or a usage error."""
    from solver.draws.seal import read_commitment, verify_round

    if revealed.sub_seed is not None:
        return _verify_sub_seed(text, name, rules, revealed, out, err)
    if revealed.earlier is not None:
        report(out, err, "--earlier goes with --sub-seed: the seed gives the earlier rounds "
                         "itself")
        return USAGE
    commitment = read_commitment(text, name)
    if revealed.seed is not None and revealed.sealed is not None:
        report(out, err, "give --seed or --sealed, not both")
        return USAGE
    seed = revealed.seed if revealed.seed is not None else commitment.seed
    if revealed.sealed is not None:
        sealed_name = "stdin" if revealed.sealed == "-" else revealed.sealed
        seed = read_commitment(read_draw_text(revealed.sealed, stdin), sealed_name).seed
        if seed is None:
            raise CertificateError(sealed_name, "a commitment, not a sealed file: it holds "
                                                "no seed")
    missing = [option for option, value in (
        ("--round K", revealed.round), ("--position ID", revealed.position),
        ("the seed (--seed S or --sealed SEALED.json) or the round's --sub-seed", seed))
               if value is None]
    if missing or revealed.round is None or revealed.position is None or seed is None:
        report(out, err, f"a commitment is verified a round at a time: give "
                         f"{', '.join(missing)}")
        return USAGE
    line = verify_round(commitment, seed, revealed.round, revealed.position, name, rules)
    out.write(f"{name}: verified {line}\n")
    return 0


@reported
def verify_command(path: str, rules: str | None, *, stdin: BinaryIO | None, out: TextIO,
                   err: TextIO, revealed: Revealed | None = None) -> int:
    """``chess960 verify``: a certificate's draw made again and compared, a
    procedure's exact distribution, or a round of a sealed draw checked
    against its commitment (``revealed``)."""
    revealed = Revealed() if revealed is None else revealed
    text = read_draw_text(path, stdin)
    name = "stdin" if path == "-" else path
    kind = draw_file_kind(text, name)
    if kind == "commitment":
        return _verify_round(text, name, rules, revealed, stdin, out, err)
    if revealed.given():
        report(out, err, f"{', '.join(revealed.given())} check a round of a sealed draw "
                         f"against its commitment; {name} is a {kind}")
        return USAGE
    if kind == "certificate":
        from solver.draws.certificate import read_certificate, verify

        line = verify(read_certificate(text, name), name, rules)
        out.write(f"{name}: verified {line}\n")
        return 0
    if rules is not None:
        report(out, err, "--rules is for certificates: a procedure says how many ids it "
                         "draws among (see 'chess960 verify --help')")
        return USAGE
    from solver.draws.procedure import distribution, read_procedure, unfairness

    procedure = read_procedure(text, name)
    found = distribution(procedure, name)
    out.write(f"{name}: {procedure.name}, ids 0..{procedure.count - 1}\n")
    for line in found.lines():
        out.write(f"  {line}\n")
    problem = unfairness(found, name)
    if problem is not None:
        report(out, err, problem)
        return FAILED
    left = " left in" if found.left < procedure.count else ""
    out.write(f"uniform: each of the {found.left:,} ids{left} has probability "
              f"1/{found.left}\n")
    return 0


@reported
def dice_command(rules: str | None, count: int | None, sides: int, cards: bool, as_json: bool,
                 *, out: TextIO, err: TextIO, method: str = "id",
                 exclude: Sequence[str] = (), html: str | None = None) -> int:
    """``chess960 dice``: a uniform draw with dice or cards, in words (or as data);
    ``method`` ``"pieces"``: piece by piece; ``exclude``: IDs left out, by rejection;
    ``html``: the printable sheet written there too (``-``: to ``out``, instead)."""
    from solver.draws.dice import dice

    if method == "pieces":
        from solver.draws.dice import pieces
        from solver.family import Family

        family_ = Family.load(rules or "chess960")
        left = excluded_ids(family_.name, exclude, family_.parse_id,
                            lambda text: family_.identify(text).id, err)
        found = pieces(family_, sides, left)
        if html is not None:
            from solver.draws.dice import pieces_sheet

            if _sheet(html, pieces_sheet(found), out):
                return 0
        out.write(found.procedure().to_json() if as_json else
                  "".join(f"{line}\n" for line in found.lines()))
        return 0
    family = None
    if count is None:
        from solver.numbering.shortcut import choose

        quick = choose(rules or "chess960").shortcut  # the shipped Chess960's count
        if quick is not None:
            family, count = quick.name, quick.count
        else:
            from solver.ruleset.reader import load

            ruleset = load(rules or "chess960")
            family, count = ruleset.name, ruleset.count
    left = []
    if exclude:
        from solver.family import Family
        from solver.notation.ranks import parse_id

        if family is not None:
            loaded = Family.load(rules or "chess960")
            left = excluded_ids(loaded.name, exclude, loaded.parse_id,
                                lambda text: loaded.identify(text).id, err)
        else:
            total, label = count, f"--count {count}"
            left = excluded_ids(label, exclude, lambda text: parse_id(text, total, label),
                                lambda text: parse_id(text, total, label), err)
    stated = dice(count, sides, cards=cards, family=family, exclude=left)
    shown = None if rules in (None, "chess960") else rules
    if html is not None:
        from solver.draws.dice import dice_sheet

        if _sheet(html, dice_sheet(stated, shown), out):
            return 0
    if as_json:
        out.write(stated.procedure().to_json())
    else:
        out.write("".join(f"{line}\n" for line in stated.lines(shown)))
    return 0


@reported
def seal_command(rules: str, rounds: int, *, seed: str | None, exclude: Sequence[str],
                 mirrors: bool, numbering: str | None, commit: str, sealed: str,
                 event: str | None, date: str | None, out: TextIO, err: TextIO) -> int:
    """``chess960 plan --commit COMMIT --sealed SEALED``: a sealed draw's
    commitment and sealed file written, both or neither, never over a file."""
    import contextlib

    from solver.draws.certificate import fresh_seed
    from solver.draws.presets import Exclusions
    from solver.draws.seal import seal
    from solver.errors import OutputFileError
    from solver.files import write_all_atomic

    for path in (commit, sealed):
        if os.path.lexists(path):
            raise OutputFileError(path, "it exists: a sealed draw never writes over a file "
                                        "(a sealed seed written over is lost); remove it "
                                        "or name another")
    _, made = seal(rules, rounds, fresh_seed() if seed is None else seed,
                   exclude=exclude, mirrors=mirrors, numbering=numbering, event=event,
                   date=date)
    write_all_atomic([(sealed, made.to_json()), (commit, made.public().to_json())])
    with contextlib.suppress(OSError):
        os.chmod(sealed, 0o600)  # the seed is the organiser's alone until the event ends
    if made.presets:
        err.write(f"excluded: {Exclusions(made.excluded, made.presets).describe()}\n")
    title = f" for {made.title()}" if made.title() else ""
    out.write(f"sealed {rounds} {made.family} rounds{title}: publish {commit} now "
              f"(seed sha256 {made.seed_sha256[:16]}...); keep {sealed} secret until the "
              f"last round, then publish it\n")
    return 0


@reported
def reveal_command(path: str, round_: int, *, fmt: str, dialect: str, stdin: BinaryIO | None,
                   out: TextIO, err: TextIO) -> int:
    """``chess960 reveal SEALED --round K``: round K's position, as ``random``
    writes one; the round's sub-seed, to publish with it, on ``err``."""
    from solver.draws.seal import checked_family, position, read_commitment, shown, sub_seed

    name = "stdin" if path == "-" else path
    sealed = read_commitment(read_draw_text(path, stdin), name)
    if sealed.seed is None:
        raise CertificateError(name, "a commitment holds no seed: reveal reads the sealed "
                                     "file (plan --sealed)")
    family = checked_family(sealed, name)
    found = position(family, sealed, round_, name)
    scheme = shown(family, sealed)
    if scheme is not None:
        from solver.output.base import position_text

        if fmt != "text":
            from solver.errors import OptionConflictError

            raise OptionConflictError("reveal", ("--format " + fmt, "a sealed draw shown "
                                      "in " + scheme.name), "its ids are written in the "
                                      "text format")
        out.write(f"{scheme.text(found.id)} {position_text(family, found)}\n")
    else:
        from solver.output import PositionWriter

        with PositionWriter(out, family, fmt, text="id-rank", dialect=dialect) as writer:
            writer.write(found)
    out.flush()
    err.write(f"round {round_}'s sub-seed, to publish with its position: "
              f"{sub_seed(sealed.seed, round_)}\n")
    return 0


def _sheet(path: str, page: str, out: TextIO) -> bool:
    """Write the sheet ``page`` to ``path`` (``-``: to ``out``; True, nothing else to write)."""
    if path == "-":
        out.write(page)
        return True
    from solver.files import write_atomic

    write_atomic(path, page)
    return False


@reported
def audit_command(path: str, rules: str, level: float, fmt: str, *, out: TextIO,
                  err: TextIO) -> int:
    """``chess960 audit``: a sample of draws tested against uniform draws; one
    ``error:`` line for each line that is not a position (the rest is still
    audited), exit 1 for those, or when the sample is not uniform at ``level``."""
    from solver.cli.inputs import load_family
    from solver.draws.audit import audit_ids, audit_path
    from solver.errors import quote

    family = load_family(rules)
    ids, bad = audit_path(path, family)
    for line in bad:
        report(out, err, f"{path}:{line.line}: not a {family.name} position: "
                         f"{quote(line.text)}: {line.reason}")
    found = audit_ids(ids, family, path, level)
    if fmt == "json":
        data = found.as_dict()
        data["bad_lines"] = len(bad)
        out.write(json.dumps(data, indent=1) + "\n")
    else:
        for text in found.report():
            out.write(text + "\n")
    out.flush()
    return FAILED if bad or not found.uniform else 0

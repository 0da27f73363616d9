"""Sealed draws: a plan committed to before the event, revealed a round at a time.

``chess960 plan --rounds N --commit COMMIT.json --sealed SEALED.json``
writes two JSON files. The **commitment** is published before the event; it
holds everything about the draw but the seed:

===================  ===========================================================
key                  what it holds
===================  ===========================================================
``format``           ``"chess960-commitment/2"`` (the sealed file:
                     ``"chess960-sealed/2"``)
``family``           the family's name
``rules``            the rule file by its content, as certificates record it
                     (:mod:`solver.draws.certificate`)
``numbering``        the numbering the draw counts IDs in (the family's own)
``shown_in``         (only when ``--numbering`` names another) the numbering
                     ``reveal`` writes IDs in and ``verify --position`` reads
``algorithm``        ``{"name": "sealed", "version": 1, "mirrors": BOOL}``
``exclusions``       ``presets`` and ``ids``, as certificates record them
``rounds``           how many rounds
``seed_sha256``      the SHA-256 of the seed (UTF-8, Unicode NFC), in hex
``sub_seed_sha256``  for each round ``K`` in turn, the SHA-256 of its sub-seed
                     (below), in hex
``event``,           (only when given) the event's name and its date
``date``
``made_by``          the program and version that sealed it
===================  ===========================================================

The **sealed** file holds the same and ``seed``; the organiser keeps it
secret until the last round is played, then publishes it (or the seed).
Files of format version 1 (``chess960-commitment/1``, ``chess960-sealed/1``)
are read too: they have no ``sub_seed_sha256``, so their rounds are checked
with the seed alone.

Round ``K`` (1, 2, ...) draws as :func:`solver.sampling.plan` does, one
draw a round, with this in place of the seed's stream: round ``K``'s
**sub-seed** ``H`` is the SHA-256 of the text ``SEED:K`` (the seed, a colon,
``K`` in decimal), in hex; ``v`` is its first :data:`HEX_DIGITS` hex digits
as a number (:data:`BITS` bits); with ``n`` IDs still allowed, ``v`` is
accepted when it is below :func:`limit` ``(n)``, the largest multiple of
``n`` not over ``2**BITS``, and ``k = v mod n``; else ``H`` becomes the
SHA-256 of ``H``'s 64 hex digits and the next ``v`` is read. Round ``K``'s
position is the ``k``-th (from 0) allowed ID in increasing order: not
excluded and not drawn in an earlier round (nor, with ``mirrors``, a mirror
of either). Each ``v`` below ``limit(n)`` gives each ``k`` exactly
``limit(n) / n`` times, so each allowed ID is equally likely; ``sha256sum``
and shell arithmetic redo it (``docs/how-to/sealed-draws.md``).

So round ``K`` follows from its sub-seed and the earlier rounds' positions:
the organiser publishes the sub-seed once the round is played
(``reveal`` prints it), and anyone checks that its SHA-256 is the committed
one and that it draws the position played (:func:`verify_sub_seed`). The
sub-seeds are hashes of the secret seed, each of another text: one of them
tells nothing of another, nor of the seed. When the seed is published, it
shows that every committed sub-seed hash was the seed's (:func:`verify_round`).
(The committed hash of a sub-seed is also the hash a rejected ``v`` is
redrawn from; a value is rejected less than once in ``2**40`` draws, for 960
IDs 256 values in ``2**60``, so this tells nothing usable of a round.)
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from typing import TYPE_CHECKING, Any, Final

from solver.errors import CertificateError, CertificateMismatchError, DrawCountError, quote

if TYPE_CHECKING:
    from solver.family import Family
    from solver.numbering.schemes import Scheme
    from solver.position import Position

#: The ``format`` of a commitment and of a sealed file.
COMMITMENT: Final = "chess960-commitment/2"
SEALED: Final = "chess960-sealed/2"
#: Every format read, with its version: version 1 has no sub-seed hashes.
FORMATS: Final = {COMMITMENT: 2, SEALED: 2, "chess960-commitment/1": 1,
                  "chess960-sealed/1": 1}
#: The algorithm and its version: the version changes whenever a seed would draw otherwise.
ALGORITHM: Final = "sealed"
VERSION: Final = 1
#: How many hex digits of a round's hash make one number, and its bits.
HEX_DIGITS: Final = 15
BITS: Final = 4 * HEX_DIGITS
#: The most rounds a sealed draw has.
MAX_ROUNDS: Final = 100_000


def _sha256(data: bytes) -> str:
    import hashlib

    return hashlib.sha256(data).hexdigest()


def _seed_bytes(seed: str) -> bytes:
    return unicodedata.normalize("NFC", seed).encode("utf-8")


def seed_hash(seed: str) -> str:
    """The SHA-256 of a seed as a commitment records it (``printf %s SEED | sha256sum``).

    >>> seed_hash("abc")[:16]
    'ba7816bf8f01cfea'
    """
    return _sha256(_seed_bytes(seed))


def sub_seed(seed: str, round_: int) -> str:
    """Round ``round_``'s sub-seed: the SHA-256 of ``SEED:K`` in hex
    (``printf %s "$SEED:$K" | sha256sum``).

    >>> sub_seed("abc", 1) == seed_hash("abc:1")
    True
    """
    return _sha256(_seed_bytes(seed) + f":{round_}".encode("ascii"))


def sub_seed_hash(sub: str) -> str:
    """The SHA-256 of a sub-seed's 64 hex digits, as a commitment records it
    (``printf %s SUBSEED | sha256sum``).

    >>> sub_seed_hash(sub_seed("abc", 1)) == seed_hash(sub_seed("abc", 1))
    True
    """
    return _sha256(sub.encode("ascii"))


def limit(n: int, bits: int = BITS) -> int:
    """How many values of ``bits`` bits are accepted for a draw among ``n``:
    the largest multiple of ``n`` not over ``2**bits``.

    >>> limit(960), 2**60 - limit(960)
    (1152921504606846720, 256)
    """
    if not 0 < n <= 1 << bits:
        raise DrawCountError(n, f"a sealed draw draws among 1 to 2**{bits} ids, not {n:,}")
    span = 1 << bits
    return span - span % n


def accept(value: int, n: int, bits: int = BITS) -> int | None:
    """The ``k`` a value of ``bits`` bits gives among ``n``, ``None`` when it is rejected.

    >>> accept(1000, 960), accept(2**60 - 1, 960)
    (40, None)
    """
    return value % n if value < limit(n, bits) else None


def below(seed: str, round_: int, n: int) -> int:
    """Round ``round_``'s ``k`` among ``n`` allowed IDs (the module's rule).

    >>> below("Spring Open 2027 sealed", 1, 960)
    533
    """
    return sub_below(sub_seed(seed, round_), n)


def sub_below(sub: str, n: int) -> int:
    """The ``k`` among ``n`` allowed IDs that a round's sub-seed draws.

    >>> sub_below(sub_seed("Spring Open 2027 sealed", 1), 960)
    533
    """
    digest = sub
    while True:
        found = accept(int(digest[:HEX_DIGITS], 16), n)
        if found is not None:
            return found
        digest = _sha256(digest.encode("ascii"))  # practically never: < 2**-40 a draw


def _rounds(seed: str) -> Callable[[int], int]:
    """The draws of rounds 1, 2, ... in turn, for :func:`solver.sampling.plan`."""
    made = [0]

    def draw(n: int) -> int:
        made[0] += 1
        return below(seed, made[0], n)

    return draw


@dataclass(frozen=True)
class Commitment:
    """A sealed draw as its commitment records it (see the module); ``seed``
    is the seed itself in a sealed file, ``None`` in a commitment;
    ``sub_seeds`` the SHA-256 of each round's sub-seed (``None``: a file of
    format version 1, which has none)."""

    family: str
    rules: str
    rules_sha256: str
    bundled: bool
    numbering: str
    mirrors: bool
    excluded: tuple[int, ...]
    presets: tuple[tuple[str, tuple[int, ...]], ...]
    rounds: int
    seed_sha256: str
    shown_in: str | None = None
    event: str | None = None
    date: str | None = None
    seed: str | None = None
    sub_seeds: tuple[str, ...] | None = None
    made_by: str = field(default="", compare=False)

    def data(self) -> dict[str, Any]:
        """The JSON object of the commitment (of the sealed file when it holds the seed)."""
        data: dict[str, Any] = {
            "format": self._format(),
            "family": self.family,
            "rules": {"bundled" if self.bundled else "path": self.rules,
                      "sha256": self.rules_sha256},
            "numbering": self.numbering,
        }
        if self.shown_in is not None:
            data["shown_in"] = self.shown_in
        data["algorithm"] = {"name": ALGORITHM, "version": VERSION, "mirrors": self.mirrors}
        data["exclusions"] = {"presets": {name: list(ids) for name, ids in self.presets},
                              "ids": list(self.excluded)}
        data["rounds"] = self.rounds
        data["seed_sha256"] = self.seed_sha256
        if self.sub_seeds is not None:
            data["sub_seed_sha256"] = list(self.sub_seeds)
        if self.seed is not None:
            data["seed"] = self.seed
        for key in ("event", "date"):
            if getattr(self, key) is not None:
                data[key] = getattr(self, key)
        data["made_by"] = self.made_by
        return data

    def _format(self) -> str:
        version = 1 if self.sub_seeds is None else 2
        kind = COMMITMENT if self.seed is None else SEALED
        return kind if version == 2 else kind.replace("/2", "/1")

    def to_json(self) -> str:
        """The JSON text: a key a line (the sub-seed hashes one a line)."""
        lines = []
        for key, value in self.data().items():
            shown = json.dumps(value, ensure_ascii=False)
            if key == "sub_seed_sha256":
                shown = "[\n" + ",\n".join(f"    {json.dumps(h)}" for h in value) + "\n  ]"
            lines.append(f"  {json.dumps(key)}: {shown}")
        return "{\n" + ",\n".join(lines) + "\n}\n"

    def public(self) -> Commitment:
        """The commitment to publish (without the seed)."""
        return replace(self, seed=None)

    def title(self) -> str:
        """The event and date, as given (``""`` when neither is)."""
        return ", ".join(part for part in (self.event, self.date) if part)


def seal(rules: str, rounds: int, seed: str, *, exclude: Iterable[str | int] = (),
         mirrors: bool = False, numbering: str | None = None, event: str | None = None,
         date: str | None = None) -> tuple[Family, Commitment]:
    """The sealed draw of ``rounds`` rounds of the family ``rules`` names (a
    bundled name or a rule file) from ``seed``, leaving out ``exclude`` (IDs,
    in ``numbering`` when given, ranges and preset names), with its family.
    Every round is drawn once here, so that a plan with too few positions
    allowed is refused now (:class:`~solver.errors.DrawError`), not at round ``K``.

    >>> family, sealed = seal("chess960", 9, "Spring Open 2027 sealed")
    >>> position(family, sealed, 1).id, sealed.public().seed
    (533, None)
    """
    from solver import __version__
    from solver.draws.certificate import rule_source
    from solver.draws.presets import read_exclusions
    from solver.family import Family
    from solver.sampling import seed_value

    seed = seed_value(seed)
    if not 0 < rounds <= MAX_ROUNDS:
        raise DrawCountError(rounds, f"a sealed draw has 1 to {MAX_ROUNDS:,} rounds, not "
                                     f"{rounds:,}")
    source = rule_source(rules)
    family = Family.from_source(source)
    scheme = None if numbering is None else family.scheme(numbering)
    if scheme is not None and scheme.canonical:
        scheme = None
    left_out = read_exclusions(family.name, exclude,
                               family.parse_id if scheme is None else scheme.read,
                               lambda text: family.identify(text).id)
    made = Commitment(family.name, rules, _sha256(source.data), source.bundled,
                      family.ruleset.numbering_name, mirrors, left_out.ids, left_out.presets,
                      rounds, seed_hash(seed), None if scheme is None else numbering, event,
                      date, seed, sub_seed_hashes(seed, rounds), f"chess960 {__version__}")
    _drawn(family, made, rounds)
    return family, made


def sub_seed_hashes(seed: str, rounds: int) -> tuple[str, ...]:
    """The SHA-256 of each round's sub-seed, rounds 1 to ``rounds``, as a commitment lists them."""
    return tuple(sub_seed_hash(sub_seed(seed, k)) for k in range(1, rounds + 1))


def _drawn(family: Family, sealed: Commitment, rounds: int) -> list[Position]:
    from solver.sampling import plan

    if sealed.seed is None:
        raise ValueError("a commitment holds no seed")
    return plan(family, rounds, exclude=sealed.excluded, mirrors=sealed.mirrors,
                draws=_rounds(sealed.seed))


def position(family: Family, sealed: Commitment, round_: int, name: str = "<sealed>") -> Position:
    """Round ``round_``'s position (1 is the first round)."""
    if not 1 <= round_ <= sealed.rounds:
        raise CertificateError(name, f"round {round_} is not a round of this draw: its "
                                     f"rounds are 1 to {sealed.rounds}")
    return _drawn(family, sealed, round_)[-1]


# -- reading ------------------------------------------------------------------------------


def read_commitment(text: str, name: str = "<commitment>") -> Commitment:
    """The commitment (or sealed file) in the JSON ``text``; raises
    :class:`~solver.errors.CertificateError` naming the first thing wrong."""
    from solver.draws.certificate import _get, _ids, _rules, _shown
    from solver.draws.jsontext import read_json

    data = read_json(text, name, CertificateError)
    if not isinstance(data, dict) or data.get("format") not in FORMATS:
        found = data.get("format") if isinstance(data, dict) else data
        raise CertificateError(name, f"not a commitment: 'format' should be {COMMITMENT!r} or "
                                     f"{SEALED!r} (or their version 1), not {_shown(found)}")
    algorithm = _get(data, "algorithm", dict, name)
    if algorithm.get("name") != ALGORITHM or algorithm.get("version") != VERSION:
        from solver.errors import UnknownAlgorithmError

        raise UnknownAlgorithmError(name, algorithm.get("name"), algorithm.get("version"),
                                    {ALGORITHM: VERSION})
    mirrors = _get(algorithm, "mirrors", bool, name, "algorithm: ")
    rules, digest, bundled = _rules(data, name)
    left_out = _get(data, "exclusions", dict, name)
    ids = _ids(_get(left_out, "ids", list, name, "exclusions: "), name, "exclusions 'ids'")
    presets = tuple((preset, _ids(value, name, f"preset {preset!r}"))
                    for preset, value in _get(left_out, "presets", dict, name,
                                              "exclusions: ").items())
    rounds = _get(data, "rounds", int, name)
    if not 0 < rounds <= MAX_ROUNDS:
        raise CertificateError(name, f"'rounds' should be 1 to {MAX_ROUNDS:,}, not {rounds}")
    hashed = _hex(_get(data, "seed_sha256", str, name), "'seed_sha256'", name)
    subs = _sub_seed_hashes(data, rounds, name) if FORMATS[data["format"]] == 2 else None
    optional = {key: _get(data, key, str, name) if key in data else None
                for key in ("shown_in", "event", "date")}
    seed = _get(data, "seed", str, name) if data["format"].startswith("chess960-sealed/") \
        else None
    made_by = data.get("made_by", "")
    made = Commitment(_get(data, "family", str, name), rules, digest, bundled,
                      _get(data, "numbering", str, name), mirrors, ids, presets, rounds,
                      hashed, optional["shown_in"], optional["event"], optional["date"], seed,
                      subs, made_by if isinstance(made_by, str) else "")
    if seed is not None:
        check_seed(made, seed, name, "its seed")
    return made


def _hex(value: str, key: str, name: str) -> str:
    """``value``, refused unless it is 64 lowercase hex digits (a SHA-256)."""
    if len(value) != 64 or any(c not in "0123456789abcdef" for c in value):
        from solver.draws.certificate import _shown

        raise CertificateError(name, f"{key} should be 64 hex digits, not {_shown(value)}")
    return value


def _sub_seed_hashes(data: dict[str, Any], rounds: int, name: str) -> tuple[str, ...]:
    """The ``sub_seed_sha256`` list: one SHA-256 a round."""
    from solver.draws.certificate import _get

    listed = _get(data, "sub_seed_sha256", list, name)
    if len(listed) != rounds:
        raise CertificateError(name, f"'sub_seed_sha256' should list {rounds} hashes, one a "
                                     f"round, not {len(listed)}")
    return tuple(_hex(value if isinstance(value, str) else repr(value),
                      f"round {k}'s 'sub_seed_sha256'", name)
                 for k, value in enumerate(listed, 1))


# -- verifying ----------------------------------------------------------------------------


def checked_family(commitment: Commitment, name: str, rules: str | None = None) -> Family:
    """The commitment's family, read from its rule file (``rules``: from there),
    refused unless it has the recorded hash, name and numbering."""
    from solver.draws.certificate import recorded_family

    return recorded_family(commitment, commitment.family, commitment.numbering, name, rules,
                           "commitment")[0]


def shown(family: Family, commitment: Commitment) -> Scheme | None:
    """The numbering ``reveal`` writes and ``verify`` reads IDs in (``None``: the family's own)."""
    if commitment.shown_in is None:
        return None
    scheme = family.scheme(commitment.shown_in)
    return None if scheme.canonical else scheme


def check_seed(commitment: Commitment, seed: str, name: str, what: str = "the seed") -> None:
    """Refuse a ``seed`` that is not the committed one, or whose sub-seeds do
    not have the committed hashes (:class:`~solver.errors.CertificateMismatchError`)."""
    found = seed_hash(seed)
    if found != commitment.seed_sha256:
        shown = f"the seed {quote(seed)}" if what == "the seed" else what
        raise CertificateMismatchError(
            name, "seed", commitment.seed_sha256, found,
            f"{shown} is not the one committed to: its SHA-256 is {found[:16]}..., the "
            f"commitment's {commitment.seed_sha256[:16]}...")
    for k, committed in enumerate(commitment.sub_seeds or (), 1):
        derived = sub_seed_hash(sub_seed(seed, k))
        if derived != committed:
            raise CertificateMismatchError(
                name, f"round {k}'s sub-seed", committed, derived,
                f"round {k}'s committed sub-seed hash {committed[:16]}... is not the seed's: "
                f"the SHA-256 of its sub-seed is {derived[:16]}...")


def verify_round(commitment: Commitment, seed: str, round_: int, claimed: str,
                 name: str = "<commitment>", rules: str | None = None) -> str:
    """Check that round ``round_`` of the committed draw is the position
    ``claimed`` (an ID as the commitment shows IDs, or a rank), given the
    ``seed`` revealed; returns what was verified, in one line.

    Raises :class:`~solver.errors.CertificateMismatchError` for a seed whose
    SHA-256 is not the committed one (or a committed sub-seed hash that is
    not the seed's), a rule file with other bytes, a claimed position that is
    not the round's.
    """
    check_seed(commitment, seed, name)
    family = checked_family(commitment, name, rules)
    scheme = shown(family, commitment)
    number = _claimed(family, scheme, claimed)
    found = position(family, replace(commitment, seed=seed), round_, name)
    write = str if scheme is None else scheme.text
    from solver.output.base import position_text

    rank = position_text(family, found)
    if found.id != number:
        raise CertificateMismatchError(
            name, f"round {round_}", claimed, found.id,
            f"round {round_} is {write(found.id)} ({rank}) by the committed seed, not "
            f"{quote(claimed)}")
    what = f" of {commitment.title()}" if commitment.title() else ""
    subs = "" if commitment.sub_seeds is None else \
        f"; its {commitment.rounds} sub-seed hashes are the seed's"
    return (f"round {round_}{what} is {write(found.id)} {rank}, drawn from the committed seed "
            f"(sha256 {commitment.seed_sha256[:16]}...) by {ALGORITHM} version {VERSION}"
            f"{subs}; {family.name} rule file unchanged (sha256 "
            f"{commitment.rules_sha256[:16]}...)")


def _claimed(family: Family, scheme: Scheme | None, claimed: str) -> int:
    """The ID of a position given as the commitment shows IDs, or as a rank."""
    text = claimed.strip()
    if (text.isascii() and text.isdigit()) or (scheme is not None and not text.isalpha()):
        return family.parse_id(text) if scheme is None else scheme.read(text)
    return family.identify(text).id


def verify_sub_seed(commitment: Commitment, round_: int, claimed: str,
                    sub: str | Sequence[str], earlier: Sequence[str] = (),
                    name: str = "<commitment>", rules: str | None = None) -> str:
    """Check that round ``round_`` of the committed draw is the position
    ``claimed`` (an ID as the commitment shows IDs, or a rank), given the
    round's sub-seed ``sub`` (64 hex digits) and the positions of the earlier
    rounds, ``earlier`` (a list as :mod:`solver.idlists` reads one: IDs as
    the commitment shows them, ranks, ``@FILE``), without the seed; returns
    what was verified, in one line. ``sub`` may also be the sub-seeds of
    rounds 1 to ``round_``: the earlier rounds are then drawn from theirs
    (and ``earlier``, when given, must be those rounds, in order).

    Raises :class:`~solver.errors.CertificateError` for a commitment of
    format version 1 (it has no sub-seed hashes), a sub-seed that is not 64
    hex digits, neither one nor ``round_`` sub-seeds, earlier rounds that are
    not ``round_ - 1`` positions that could have been played (each allowed
    when it was drawn), or not those the earlier sub-seeds draw;
    :class:`~solver.errors.CertificateMismatchError` for a sub-seed whose
    SHA-256 is not round ``round_``'s committed one, a rule file with other
    bytes, a claimed position that is not the round's.
    """
    from solver.idlists import read_numbers

    if not 1 <= round_ <= commitment.rounds:
        raise CertificateError(name, f"round {round_} is not a round of this draw: its "
                                     f"rounds are 1 to {commitment.rounds}")
    subs = (sub,) if isinstance(sub, str) else tuple(sub)
    if len(subs) not in (1, round_):
        raise CertificateError(name, f"round {round_} is verified with its sub-seed, or with "
                                     f"the sub-seeds of rounds 1 to {round_}, not "
                                     f"{len(subs)} sub-seeds")
    committed = [_committed_sub_seed(commitment, k, text, name)
                 for k, text in enumerate(subs, round_ + 1 - len(subs))][-1]
    family = checked_family(commitment, name, rules)
    scheme = shown(family, commitment)
    write = str if scheme is None else scheme.text
    number = _claimed(family, scheme, claimed)
    played = list(read_numbers(family, earlier, scheme)) if earlier else []
    if played or len(subs) == 1:
        _check_earlier(family, commitment, round_, played, write, name)
    if len(subs) > 1:
        played = _earlier_drawn(family, commitment, subs[:-1], played, write, name)
    found = _after(family, commitment, played, partial(sub_below, subs[-1].strip().lower()))
    from solver.output.base import position_text

    rank = position_text(family, found)
    after = f" after {', '.join(map(write, played))}" if played else ""
    if len(subs) > 1 and played:
        after += " (drawn from their sub-seeds)"
    if found.id != number:
        raise CertificateMismatchError(
            name, f"round {round_}", claimed, found.id,
            f"round {round_} is {write(found.id)} ({rank}) by its sub-seed{after}, not "
            f"{quote(claimed)}")
    what = f" of {commitment.title()}" if commitment.title() else ""
    return (f"round {round_}{what} is {write(found.id)} {rank}, drawn from its committed "
            f"sub-seed (sha256 {committed[:16]}...){after} by {ALGORITHM} version {VERSION}; "
            f"{family.name} rule file unchanged (sha256 {commitment.rules_sha256[:16]}...)")


def _earlier_drawn(family: Family, commitment: Commitment, subs: Sequence[str],
                   given: list[int], write: Callable[[int], str], name: str) -> list[int]:
    """The positions the sub-seeds of rounds 1, 2, ... draw, refused unless
    the ``given`` ones (if any) are they, in order."""
    from solver.output.base import position_text

    drawn: list[int] = []
    for k, text in enumerate(subs, 1):
        found = _after(family, commitment, drawn, partial(sub_below, text.strip().lower()))
        if given and given[k - 1] != found.id:
            raise CertificateMismatchError(
                name, f"round {k}", write(given[k - 1]), found.id,
                f"round {k} is {write(found.id)} ({position_text(family, found)}) by its "
                f"sub-seed, not {quote(write(given[k - 1]))}")
        drawn.append(found.id)
    return drawn


def _committed_sub_seed(commitment: Commitment, round_: int, sub: str, name: str) -> str:
    """Round ``round_``'s committed sub-seed hash, refused unless ``sub`` has it."""
    if commitment.sub_seeds is None:
        raise CertificateError(name, "a commitment of version 1 records no sub-seed hashes: "
                                     "its rounds are verified with the seed")
    text = sub.strip().lower()
    if len(text) != 64 or any(c not in "0123456789abcdef" for c in text):
        raise CertificateError(name, f"the sub-seed {quote(sub)} is not 64 hex digits (a "
                                     f"round's sub-seed, as 'chess960 reveal' prints it)")
    committed, found = commitment.sub_seeds[round_ - 1], sub_seed_hash(text)
    if found != committed:
        other = [k for k, hashed in enumerate(commitment.sub_seeds, 1) if hashed == found]
        why = (f"it is round {other[0]}'s" if other else
               f"its SHA-256 is {found[:16]}..., the commitment's {committed[:16]}...")
        raise CertificateMismatchError(
            name, f"round {round_}'s sub-seed", committed, found,
            f"the sub-seed {quote(sub)} is not round {round_}'s committed one: {why}")
    return committed


def _after(family: Family, commitment: Commitment, played: Sequence[int],
           draws: Callable[[int], int]) -> Position:
    """The position drawn by ``draws`` after the rounds that drew ``played``:
    those left out as excluded IDs are (with their mirrors) as drawn ones are."""
    from solver.sampling import plan

    return plan(family, 1, exclude=[*commitment.excluded, *played],
                mirrors=commitment.mirrors, draws=draws)[0]


def _check_earlier(family: Family, commitment: Commitment, round_: int, played: list[int],
                   write: Callable[[int], str], name: str) -> None:
    """Refuse ``played`` unless it is ``round_ - 1`` positions, each allowed
    when drawn: not excluded, nor played before (nor, with mirrors, a mirror
    of either). Each round that is allowed leaves fewer IDs for the next."""
    if len(played) != round_ - 1:
        given = f" ({', '.join(map(write, played))})" if played else ""
        raise CertificateError(name, f"round {round_} comes after {round_ - 1} rounds: their "
                                     f"{round_ - 1} positions are needed, not "
                                     f"{len(played)}{given}")

    def allowed(rounds: int) -> int:
        """How many IDs the round after the first ``rounds`` of ``played`` draws among."""
        left: list[int] = []

        def count(n: int) -> int:
            left.append(n)
            return 0

        _after(family, commitment, played[:rounds], count)
        return left[0]

    before = allowed(0)
    for k, number in enumerate(played, 1):
        now = allowed(k)
        if now == before:
            mirror = ", or a mirror of one" if commitment.mirrors else ""
            raise CertificateError(name, f"round {k}'s position {write(number)} cannot have "
                                         f"been drawn: it is excluded or an earlier round's"
                                         f"{mirror}")
        before = now

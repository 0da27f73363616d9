"""A draw's certificate: everything needed to make the draw again, and the check that does.

``chess960 random ... --certificate FILE`` and ``chess960 plan ...
--certificate FILE`` write one; ``chess960 verify FILE`` makes the draw
again from it and compares. A certificate is a JSON object:

=================  =============================================================
key                what it holds
=================  =============================================================
``format``         ``"chess960-certificate/2"``
``family``         the family's name (``chess960``)
``rules``          the rule file by its content: ``{"bundled": NAME, "sha256": HEX}``
                   for a bundled family, ``{"path": PATH, "sha256": HEX}`` for
                   any other file (the SHA-256 of its bytes, in hex)
``numbering``      the numbering the IDs are in (:func:`numbering_name`)
``seed``           the seed phrase (README: "Fair random draws"); a draw
                   asked for without one gets 32 random hex digits, recorded
``algorithm``      ``name`` (``random`` or ``plan``), ``version`` and the
                   draw's options (``distinct``; ``mirrors``)
``exclusions``     ``presets``: each preset named, with its IDs; ``ids``:
                   every ID left out
``count``          how many positions were drawn
``results``        each one's ``id``, ``rank`` and ``fen``, in order
``made_by``        the program and version that drew
``event``,         (only when given: ``plan --event --date``) the event's name
``date``           and its date
=================  =============================================================

:func:`verify` refuses a certificate whose algorithm version this build does
not have, whose rule file has other bytes (another hash: a bundled family
is read from this build's own rule files, never from a path), whose family
or numbering is another, whose presets now stand for other IDs, or whose
results are not what the draw gives (naming the first that differs). What it
verified names the rule file as the certificate does: ``the bundled
chess960`` or ``the rule file 'PATH'``, with its hash; a file that is not
the bundled one but whose family takes a bundled family's name is said to be
NOT that bundled family.

Certificates of the first format (``"chess960-certificate/1"``) are read
too: their ``rules`` (text) is the bundled family it names when it names one
(as ``--rules`` reads it), else a path, and ``rules_sha256`` pins its bytes.
A JSON object that repeats a key is refused (:func:`~solver.draws.jsontext.read_json`).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final, NamedTuple, Protocol

from solver.errors import (
    CertificateError,
    CertificateMismatchError,
    Chess960Error,
    DrawCountError,
    UnknownAlgorithmError,
    UnknownRuleSetError,
    quote,
)
from solver.ruleset.bundled import EARLIER

if TYPE_CHECKING:
    from solver.family import Family
    from solver.position import Position
    from solver.ruleset.source import RuleSource

#: The value of a certificate's ``format`` key.
FORMAT: Final = "chess960-certificate/2"
#: The first format: ``rules`` as ``--rules`` named it, and ``rules_sha256``.
FORMAT_1: Final = "chess960-certificate/1"
#: The formats :func:`read_certificate` reads.
FORMATS: Final = (FORMAT, FORMAT_1)

#: The draw algorithms of :mod:`solver.sampling` a certificate may name, with
#: their versions: a version changes whenever a seed would draw otherwise.
ALGORITHMS: Final[dict[str, int]] = {"random": 1, "plan": 1}

#: The most positions one certificate lists (it holds every draw, and
#: ``verify`` reads it whole).
MAX_RESULTS: Final = 100_000

#: Each algorithm's options (all true or false).
OPTIONS: Final[dict[str, tuple[str, ...]]] = {"random": ("distinct",), "plan": ("mirrors",)}
#: How :meth:`Certificate.describe` says an option is on.
OPTION_WORDS: Final = {"distinct": "distinct", "mirrors": "never a position and its mirror"}


def numbering_name(family: Family) -> str:
    """The name of the numbering a family's IDs are in, as certificates record
    it: the family's own (``[numbering] name`` of its rule file).

    >>> from solver.family import Family
    >>> numbering_name(Family.load("chess960")), numbering_name(Family.load("shuffle"))
    ('scharnagl', 'canonical')
    """
    return family.ruleset.numbering_name


@dataclass(frozen=True)
class Result:
    """One position drawn: its ID, its rank (or pair) and its FEN."""

    id: int
    rank: str
    fen: str


@dataclass(frozen=True)
class Certificate:
    """A draw as a certificate records it (see the module)."""

    family: str
    rules: str
    rules_sha256: str
    numbering: str
    seed: str
    algorithm: str
    version: int
    options: tuple[tuple[str, bool], ...]
    excluded: tuple[int, ...]
    presets: tuple[tuple[str, tuple[int, ...]], ...]
    results: tuple[Result, ...]
    made_by: str = field(default="", compare=False)
    #: Whether ``rules`` is a bundled family's name (else a rule file's path).
    bundled: bool = True
    #: The event's name and date, when given (``plan --event --date``).
    event: str | None = None
    date: str | None = None

    @property
    def count(self) -> int:
        return len(self.results)

    def option(self, name: str) -> bool:
        return dict(self.options).get(name, False)

    def data(self) -> dict[str, Any]:
        """The certificate as the JSON object the module describes."""
        return {
            "format": FORMAT,
            "family": self.family,
            "rules": {"bundled" if self.bundled else "path": self.rules,
                      "sha256": self.rules_sha256},
            "numbering": self.numbering,
            "seed": self.seed,
            "algorithm": {"name": self.algorithm, "version": self.version,
                          **dict(self.options)},
            "exclusions": {"presets": {name: list(ids) for name, ids in self.presets},
                           "ids": list(self.excluded)},
            "count": self.count,
            "results": [{"id": r.id, "rank": r.rank, "fen": r.fen} for r in self.results],
            "made_by": self.made_by,
            **{key: value for key, value in (("event", self.event), ("date", self.date))
               if value is not None},
        }

    def to_json(self) -> str:
        """The certificate as JSON text: a key a line, a result a line."""
        lines = []
        for key, value in self.data().items():
            if key == "results" and value:
                inner = ",\n".join(f"    {json.dumps(r, ensure_ascii=False)}" for r in value)
                lines.append(f'  "results": [\n{inner}\n  ]')
            else:
                lines.append(f"  {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}")
        return "{\n" + ",\n".join(lines) + "\n}\n"

    def write(self, path: str) -> None:
        """Write the certificate to ``path`` atomically (:func:`solver.files.write_atomic`)."""
        from solver.files import write_atomic

        write_atomic(path, self.to_json())

    def describe(self) -> str:
        """The draw in a few words: how many positions, how, from which seed, leaving out what.

        >>> c = Certificate("chess960", "chess960", "0" * 64, "scharnagl", "x", "plan", 1,
        ...                 (("mirrors", True),), (518, 534), (("chess958", (518, 534)),),
        ...                 (Result(1, "R", "F"),))
        >>> first, then = c.describe().split(" from ")
        >>> first
        '1 chess960 position drawn by plan version 1 (never a position and its mirror)'
        >>> then
        "seed 'x', excluding chess958 (518, 534)"
        """
        from solver.draws.presets import Exclusions

        on = [OPTION_WORDS.get(name, name) for name, value in self.options if value]
        options = f" ({', '.join(on)})" if on else ""
        left_out = Exclusions(self.excluded, self.presets).describe()
        excluding = f", excluding {left_out}" if left_out else ""
        noun = "position" if self.count == 1 else "positions"
        return (f"{self.count:,} {self.family} {noun} drawn by {self.algorithm} version "
                f"{self.version}{options} from seed {quote(self.seed)}{excluding}")


class Certified(NamedTuple):
    """A draw made with its certificate: the family, the positions, the certificate."""

    family: Family
    positions: list[Position]
    certificate: Certificate


def fresh_seed() -> str:
    """A seed phrase for a certified draw asked for without one: 32 hex digits
    from the operating system's randomness."""
    import secrets

    return secrets.token_hex(16)


def rule_source(rules: str) -> RuleSource:
    """The rule file ``rules`` names (a bundled name or a path), read once."""
    from solver.ruleset.reader import bundled_names
    from solver.ruleset.source import RuleSource

    try:
        return RuleSource.read(rules)
    except LookupError:
        from solver.syntax.args import suggest

        known = bundled_names()
        raise UnknownRuleSetError(rules, suggest(rules, known), known) from None


def _sha256(data: bytes) -> str:
    import hashlib

    return hashlib.sha256(data).hexdigest()


def _results(family: Family, positions: Iterable[Position]) -> tuple[Result, ...]:
    from solver.notation.fen import position_fen
    from solver.output.base import position_text

    return tuple(Result(p.id, position_text(family, p), position_fen(p)) for p in positions)


def _drawn(family: Family, algorithm: str, count: int, seed: str, excluded: Sequence[int],
           options: Mapping[str, bool]) -> list[Position]:
    """The positions ``algorithm`` draws (the one place each algorithm is run)."""
    from solver import sampling

    if algorithm == "random":
        return sampling.draw(family, count, seed=seed, distinct=options.get("distinct", False),
                             exclude=excluded)
    return sampling.plan(family, count, seed=seed, exclude=excluded,
                         mirrors=options.get("mirrors", False))


def certify(rules: str, algorithm: str, count: int, *, seed: int | str | None = None,
            exclude: Iterable[str | int] = (), event: str | None = None,
            date: str | None = None, **options: bool) -> Certified:
    """Draw ``count`` positions of the family ``rules`` names by ``algorithm``
    (``random``: :func:`solver.sampling.draw`, option ``distinct``;
    ``plan``: :func:`solver.sampling.plan`, option ``mirrors``), leaving out
    ``exclude`` (IDs and preset names, :mod:`solver.draws.presets`), with
    the certificate of that draw (naming ``event`` and ``date`` when given).

    >>> made = certify("chess960", "plan", 3, seed="Freestyle Open 2026",
    ...                exclude=["chess958"], mirrors=True)
    >>> [p.id for p in made.positions], made.certificate.excluded
    ([804, 746, 733], (518, 534))
    >>> verify(made.certificate).split(": ")[-1][:27]
    'the bundled chess960 (sha25'
    """
    from solver.draws.presets import exclusions
    from solver.family import Family
    from solver.sampling import seed_value

    if algorithm not in ALGORITHMS:
        raise UnknownAlgorithmError("<certify>", algorithm, None, ALGORITHMS)
    if count > MAX_RESULTS:
        raise DrawCountError(count, f"cannot certify {count:,} draws: a certificate lists "
                                    f"every draw, at most {MAX_RESULTS:,}")
    for name in options:
        if name not in OPTIONS[algorithm]:
            raise TypeError(f"{algorithm} takes the options {OPTIONS[algorithm]}, not {name!r}")
    phrase = seed_value(seed) if seed is not None else fresh_seed()
    source = rule_source(rules)
    family = Family.from_source(source)
    left_out = exclusions(family, exclude)
    chosen = {name: bool(options.get(name, False)) for name in OPTIONS[algorithm]}
    positions = _drawn(family, algorithm, count, phrase, left_out.ids, chosen)
    from solver import __version__

    certificate = Certificate(
        family.name, rules, _sha256(source.data), numbering_name(family), phrase, algorithm,
        ALGORITHMS[algorithm], tuple(chosen.items()), left_out.ids, left_out.presets,
        _results(family, positions), f"chess960 {__version__}", source.bundled, event, date)
    return Certified(family, positions, certificate)


# -- reading ------------------------------------------------------------------------------


def read_certificate(text: str, name: str = "<certificate>") -> Certificate:
    """The certificate in the JSON ``text`` (``name``: the file, for errors).

    Raises :class:`~solver.errors.CertificateError` naming the first thing
    wrong, :class:`~solver.errors.UnknownAlgorithmError` for an algorithm (or
    version) this build does not have.
    """
    from solver.draws.jsontext import read_json

    data = read_json(text, name, CertificateError)
    return certificate_from(data, name)


def _shown(value: object) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 60 else f"{text[:50]}... ({len(text)} characters)"


def _get(data: Mapping[str, Any], key: str, kind: type, name: str, what: str = "") -> Any:
    value = data.get(key)
    if type(value) is not kind:
        label = {str: "text", int: "a whole number", dict: "a JSON object",
                 list: "a list", bool: "true or false"}[kind]
        found = "missing" if key not in data else f"{_shown(value)}"
        raise CertificateError(name, f"{what}{key!r} should be {label}, not {found}")
    return value


def certificate_from(data: object, name: str = "<certificate>") -> Certificate:
    """The certificate in the decoded JSON ``data`` (see :func:`read_certificate`)."""
    if not isinstance(data, dict):
        raise CertificateError(name, f"not a certificate: a JSON object was expected, not "
                                     f"{_shown(data)}")
    if data.get("format") not in FORMATS:
        raise CertificateError(name, f"not a certificate: 'format' should be {FORMAT!r} (or "
                                     f"the older {FORMAT_1!r}), not "
                                     f"{_shown(data.get('format'))}")
    family = _get(data, "family", str, name)
    rules, digest, bundled = _rules(data, name)
    numbering = _get(data, "numbering", str, name)
    seed = _get(data, "seed", str, name)
    algorithm = _get(data, "algorithm", dict, name)
    title, version = algorithm.get("name"), algorithm.get("version")
    if ALGORITHMS.get(title) != version or type(version) is not int:
        raise UnknownAlgorithmError(name, title, version, ALGORITHMS)
    options = []
    for key, value in algorithm.items():
        if key in ("name", "version"):
            continue
        if key not in OPTIONS[title] or type(value) is not bool:
            raise CertificateError(name, f"algorithm {title} has no option {key}={_shown(value)} "
                                         f"(its options: {', '.join(OPTIONS[title])}, "
                                         f"true or false)")
        options.append((key, value))
    left_out = _get(data, "exclusions", dict, name)
    ids = _ids(_get(left_out, "ids", list, name, "exclusions: "), name, "exclusions 'ids'")
    raw_presets = _get(left_out, "presets", dict, name, "exclusions: ")
    presets = tuple((preset, _ids(value, name, f"preset {preset!r}"))
                    for preset, value in raw_presets.items())
    count = _get(data, "count", int, name)
    if count > MAX_RESULTS:
        raise CertificateError(name, f"'count' is {count:,}: a certificate lists at most "
                                     f"{MAX_RESULTS:,} draws")
    raw_results = _get(data, "results", list, name)
    results = []
    for at, item in enumerate(raw_results, 1):
        what = f"result {at}: "
        if not isinstance(item, dict):
            raise CertificateError(name, f"result {at} should be a JSON object, not "
                                         f"{_shown(item)}")
        results.append(Result(_get(item, "id", int, name, what),
                              _get(item, "rank", str, name, what),
                              _get(item, "fen", str, name, what)))
    if count != len(results):
        raise CertificateError(name, f"'count' is {count}, but {len(results)} results are listed")
    made_by = data.get("made_by", "")
    event, date = (_get(data, key, str, name) if key in data else None
                   for key in ("event", "date"))
    return Certificate(family, rules, digest, numbering, seed, title, version,
                       tuple(options), ids, presets, tuple(results),
                       made_by if isinstance(made_by, str) else "", bundled, event, date)


def _rules(data: Mapping[str, Any], name: str) -> tuple[str, str, bool]:
    """The certificate's rule file: its name or path, its SHA-256, whether it is bundled."""
    from solver.ruleset.bundled import bundled_path

    if data["format"] == FORMAT_1:
        rules = _get(data, "rules", str, name)
        digest = _get(data, "rules_sha256", str, name)
        bundled = bundled_path(rules) is not None  # as --rules read it: a name first
        key = "rules_sha256"
    else:
        found = _get(data, "rules", dict, name)
        kinds = [kind for kind in ("bundled", "path") if kind in found]
        if len(kinds) != 1 or set(found) != {kinds[0], "sha256"}:
            raise CertificateError(name, f"'rules' should be {{\"bundled\": NAME, \"sha256\": "
                                         f"HEX}} or {{\"path\": PATH, \"sha256\": HEX}}, not "
                                         f"{_shown(found)}")
        rules = _get(found, kinds[0], str, name, "rules: ")
        digest = _get(found, "sha256", str, name, "rules: ")
        bundled = kinds[0] == "bundled"
        if bundled and bundled_path(rules) is None:
            from solver.ruleset.reader import bundled_names

            raise CertificateError(name, f"the certificate's rule file is the bundled family "
                                         f"{quote(rules)}, which this build does not have "
                                         f"(it has {', '.join(bundled_names())})")
        key = "rules: 'sha256'"
    if len(digest) != 64 or any(c not in "0123456789abcdef" for c in digest):
        raise CertificateError(name, f"{key} should be 64 hex digits, not {_shown(digest)}")
    return rules, digest, bundled


def _ids(value: object, name: str, what: str) -> tuple[int, ...]:
    if not isinstance(value, list) or any(type(v) is not int for v in value):
        raise CertificateError(name, f"{what} should be a list of whole numbers, not "
                                     f"{_shown(value)}")
    return tuple(value)


# -- verifying ----------------------------------------------------------------------------


def verify(certificate: Certificate, name: str = "<certificate>",
           rules: str | None = None) -> str:
    """Make the certified draw again and compare; returns what was verified, in one line.

    ``rules`` reads the rule file from another place than the certificate
    names (it must still have the recorded hash). A bundled family is read
    from this build's own rule files, a path as a path (never as a bundled name). Raises
    :class:`~solver.errors.CertificateMismatchError` at the first difference
    (the rule file's hash, the family, the numbering, a preset's IDs, a
    result), :class:`~solver.errors.UnknownAlgorithmError` for an algorithm
    this build does not have.
    """
    from solver.draws.presets import exclusions

    if ALGORITHMS.get(certificate.algorithm) != certificate.version:
        raise UnknownAlgorithmError(name, certificate.algorithm, certificate.version, ALGORITHMS)
    family, source = recorded_family(certificate, certificate.family, certificate.numbering,
                                     name, rules, "certificate")
    digest, numbering = certificate.rules_sha256, certificate.numbering
    for preset, ids in certificate.presets:
        try:
            now = exclusions(family, [preset]).ids
        except Chess960Error as exc:
            raise CertificateMismatchError(name, f"preset {preset}", ids, None,
                                           f"the certificate's preset: {exc}") from None
        if now != ids:
            raise CertificateMismatchError(
                name, f"preset {preset}", ids, now,
                f"the preset {preset} stands for ids {', '.join(map(str, now))} now, the "
                f"certificate excludes {', '.join(map(str, ids)) or 'none'} for it")
        if not set(ids) <= set(certificate.excluded):
            raise CertificateMismatchError(
                name, "exclusions", certificate.excluded, ids,
                f"the ids the certificate leaves out lack its preset {preset}'s "
                f"({', '.join(map(str, ids))})")
    try:
        derived = _results(family, _drawn(family, certificate.algorithm, certificate.count,
                                          certificate.seed, certificate.excluded,
                                          dict(certificate.options)))
    except Chess960Error as exc:  # an excluded id out of range, too few left, a bad seed
        raise CertificateError(name, f"the draw cannot be made again: {exc}") from None
    for at, (recorded, found) in enumerate(zip(certificate.results, derived, strict=True), 1):
        if recorded != found:
            _differs(name, at, recorded, found)
    return (f"{certificate.describe()}: {_named(source, family.name, digest)} unchanged, "
            f"{numbering} numbering")


class Recorded(Protocol):
    """What names a draw's rule file: a certificate's (or a sealed draw's,
    :mod:`solver.draws.seal`) ``rules``, ``rules_sha256`` and ``bundled``."""

    @property
    def rules(self) -> str: ...
    @property
    def rules_sha256(self) -> str: ...
    @property
    def bundled(self) -> bool: ...


def recorded_family(recorded: Recorded, family_name: str, numbering: str, name: str,
                    rules: str | None, noun: str) -> tuple[Family, RuleSource]:
    """The family of a recorded draw (a ``noun``: certificate, commitment) and
    its rule file (``rules``: read from there instead), refused
    (:class:`~solver.errors.CertificateMismatchError`) unless it has the
    recorded SHA-256, family name ``family_name`` and ``numbering``."""
    from solver.family import Family

    source = _certified_source(recorded, rules)
    digest = _sha256(source.data)
    if digest != recorded.rules_sha256:
        what = (f"this build's bundled {_bundled_name(source)} ({source.shown}) is not the "
                f"rule file of the draw" if source.bundled else
                f"the rule file {source.shown} has changed since the draw")
        raise CertificateMismatchError(
            name, "rule file", recorded.rules_sha256, digest,
            f"{what}: its SHA-256 is {digest[:16]}..., the {noun}'s "
            f"{recorded.rules_sha256[:16]}...")
    family = Family.from_source(source)
    if family.name != family_name:
        raise CertificateMismatchError(
            name, "family", family_name, family.name,
            f"the {noun} is for the family {quote(family_name)}, "
            f"{source.shown} is {quote(family.name)}")
    found = numbering_name(family)
    if found != numbering:
        raise CertificateMismatchError(
            name, "numbering", numbering, found,
            f"the {noun}'s ids are in the {quote(numbering)} numbering, "
            f"{family.name}'s are in {quote(found)}")
    return family, source


def _certified_source(certificate: Recorded, rules: str | None) -> RuleSource:
    """The rule file to verify against: ``rules`` when given (a name or a path, as
    ``--rules`` reads it), else the bundled family or the path the certificate names."""
    from solver.ruleset.bundled import bundled_path, earlier_path
    from solver.ruleset.source import RuleSource

    if rules is not None:
        return rule_source(rules)
    if not certificate.bundled:
        return RuleSource.open(certificate.rules, certificate.rules)
    path = bundled_path(certificate.rules)
    if path is None:
        return rule_source(certificate.rules)  # no such bundled family: its error
    source = RuleSource.open(path, f"rules/{certificate.rules}.toml", bundled=True)
    if _sha256(source.data) != certificate.rules_sha256:  # an earlier version, if kept
        earlier = earlier_path(certificate.rules, certificate.rules_sha256)
        if earlier is not None:
            shown = f"rules/{EARLIER}/{os.path.basename(earlier)}"
            return RuleSource.open(earlier, shown, bundled=True)
    return source


def _earlier(source: RuleSource) -> bool:
    """Whether ``source`` is a bundled family's earlier version (``rules/earlier/``)."""
    return source.bundled and os.path.basename(os.path.dirname(source.path)) == EARLIER


def _bundled_name(source: RuleSource) -> str:
    """The name of the bundled family whose rule file ``source`` is (an earlier
    version's too: ``rules/earlier/NAME-HASH.toml``)."""
    name = os.path.basename(source.path).removesuffix(".toml")
    return name.rsplit("-", 1)[0] if _earlier(source) else name


def _named(source: RuleSource, family: str, digest: str) -> str:
    """The rule file as :func:`verify` names it: bundled or a path, with its hash;
    a path whose family takes a bundled family's name is said to be that family
    or NOT it, as its bytes are."""
    from solver.ruleset.bundled import bundled_path

    short = f"sha256 {digest[:16]}..."
    if source.bundled:
        earlier = " as an earlier version shipped it" if _earlier(source) else ""
        return f"the bundled {_bundled_name(source)}{earlier} ({short})"
    shown = f"the rule file {quote(source.shown)} ({short}"
    same = bundled_path(family)
    if same is None:
        return f"{shown})"
    try:
        with open(same, "rb") as handle:
            genuine = _sha256(handle.read()) == digest
    except OSError:
        genuine = False
    if genuine:
        return f"{shown}, the bundled {family}'s very bytes)"
    return f"{shown}; its family is named {quote(family)} but it is NOT the bundled {family}: " \
           f"other bytes)"


def _differs(name: str, at: int, recorded: Result, found: Result) -> None:
    """Raise the error for result ``at``, which is not what the draw gives."""
    if recorded.id != found.id:
        what, was, now = "id", str(recorded.id), f"{found.id} ({found.rank})"
    elif recorded.rank != found.rank:
        what, was, now = "rank", quote(recorded.rank), quote(found.rank)
    else:
        what, was, now = "fen", quote(recorded.fen), quote(found.fen)
    raise CertificateMismatchError(
        name, f"result {at}", recorded, found,
        f"result {at} differs: the certificate has {what} {was}, the draw gives {now}")


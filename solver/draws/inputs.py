"""A draw's file read: a certificate, a procedure or a sealed draw's
commitment (``chess960 verify``, ``reveal``, ``audit``), bounded, and which
of them its JSON says it is."""

from __future__ import annotations

import json
from typing import BinaryIO, Final

from solver.errors import CertificateError, InputFileError

__all__ = ["MAX_BYTES", "draw_file_kind", "read_draw_text"]

#: The largest certificate or procedure file read (a certificate lists every draw).
MAX_BYTES: Final = 64 << 20


def read_draw_text(path: str, stdin: BinaryIO | None) -> str:
    """The text of the file ``path`` (``-``: standard input): a regular file
    of at most :data:`MAX_BYTES` bytes of UTF-8."""
    if path != "-":
        from solver.files import read_text

        return read_text(path, MAX_BYTES, lambda reason: InputFileError(path, reason))
    if stdin is None:
        raise InputFileError(path, "standard input is closed")
    data = stdin.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise InputFileError(path, f"larger than {MAX_BYTES:,} bytes")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputFileError(path, f"not UTF-8 text (byte {exc.start})") from None


def draw_file_kind(text: str, name: str) -> str:
    """``"certificate"``, ``"procedure"`` or ``"commitment"`` (a sealed file too):
    what the JSON ``text`` says it is.

    >>> draw_file_kind('{"format": "chess960-procedure/1"}', "p.json")
    'procedure'
    >>> draw_file_kind('{"format": 7}', "x.json")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    solver.errors.CertificateError: x.json: neither a draw certificate nor ... 'format' is 7, ...
    """
    from solver.draws.certificate import FORMAT as CERTIFICATE
    from solver.draws.certificate import FORMATS as CERTIFICATES
    from solver.draws.jsontext import read_json
    from solver.draws.procedure import FORMAT as PROCEDURE
    from solver.draws.seal import COMMITMENT
    from solver.draws.seal import FORMATS as COMMITMENTS

    data = read_json(text, name, CertificateError)
    found = data.get("format") if isinstance(data, dict) else None
    if found == PROCEDURE:
        return "procedure"
    if found in CERTIFICATES:
        return "certificate"
    if found in COMMITMENTS:
        return "commitment"
    shown = json.dumps(found, ensure_ascii=False)[:60] if found is not None else "missing"
    raise CertificateError(name, f"neither a draw certificate nor a procedure nor a sealed "
                                 f"draw's commitment: 'format' is {shown}, not "
                                 f"{CERTIFICATE!r}, {PROCEDURE!r} or {COMMITMENT!r}")

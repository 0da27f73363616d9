"""Where the bundled rule files are: found without importing the rule reader.

:mod:`solver.ruleset.reader` reads them; :mod:`solver.numbering.shortcut` only needs their bytes,
at start-up, so this module imports nothing but :mod:`os` and :mod:`re`.
"""

from __future__ import annotations

import os
import re

TYPE_CHECKING = False  # typing is the type checker's alone: importing it costs start-up
if TYPE_CHECKING:
    from typing import Final

#: A family's name: short, lower case (also how a bundled family is named on the command line).
NAME_RE: Final = re.compile(r"[a-z0-9][a-z0-9-]{0,39}")


def rules_folder() -> str:
    """The directory of the bundled rule files.

    Inside an installed wheel they sit in the package (``solver/rules``); in a
    source checkout or an editable install, beside it (``rules/``).
    """
    package = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
    packaged = os.path.join(package, "rules")
    if os.path.isdir(packaged):
        return packaged
    return os.path.join(os.path.dirname(package), "rules")


def bundled_path(name: str) -> str | None:
    """The path of the bundled rule file ``name`` names, or None when it names none.

    >>> os.path.basename(bundled_path("chess960") or "")
    'chess960.toml'
    >>> bundled_path("rules/chess960.toml") is None
    True
    """
    if not NAME_RE.fullmatch(name):
        return None
    path = os.path.join(rules_folder(), f"{name}.toml")
    return path if os.path.isfile(path) else None


#: The folder of ``rules/`` that keeps each bundled rule file's earlier versions,
#: ``NAME-HASH.toml`` (``HASH`` the first 16 hex digits of the file's SHA-256), so a
#: draw certified with an earlier version is verified against the very bytes it names.
EARLIER: Final = "earlier"


def earlier_path(name: str, sha256: str) -> str | None:
    """The path of the bundled family ``name``'s earlier version whose SHA-256
    (hex) is ``sha256``, or None when this build keeps none by that hash's first
    16 digits (the caller compares the whole hash with the file's bytes).

    >>> import hashlib, pathlib
    >>> path = earlier_path("chess960", "90c33732fe30ae7a" + "0" * 48)
    >>> os.path.basename(path or "")
    'chess960-90c33732fe30ae7a.toml'
    >>> hashlib.sha256(pathlib.Path(path).read_bytes()).hexdigest()[:16]
    '90c33732fe30ae7a'
    >>> earlier_path("chess960", "0" * 64) is None
    True
    """
    if not NAME_RE.fullmatch(name) or not re.fullmatch(r"[0-9a-f]{64}", sha256):
        return None
    path = os.path.join(rules_folder(), EARLIER, f"{name}-{sha256[:16]}.toml")
    return path if os.path.isfile(path) else None

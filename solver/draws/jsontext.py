"""JSON text read for a certificate or a procedure, with one error for anything wrong."""

from __future__ import annotations

import json
from typing import Any


class _RepeatedKeyError(ValueError):
    """A JSON object names ``key`` twice."""

    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """The object of ``pairs``; :class:`_RepeatedKeyError` when a key comes twice (Python's
    reader would keep the last silently: which one a reader counts is not for a
    forger to choose)."""
    found: dict[str, Any] = {}
    for key, value in pairs:
        if key in found:
            raise _RepeatedKeyError(key)
        found[key] = value
    return found


def read_json(text: str, name: str, error: type[Exception]) -> object:
    """The JSON value in ``text``; ``error(name, reason)`` when it is not JSON
    this reader takes (bad syntax, a key twice in one object, nested too
    deeply, an integer of more digits than Python reads).

    >>> read_json('{"a": [1]}', "x.json", ValueError)
    {'a': [1]}
    >>> read_json('{"a": ', "x.json", ValueError)
    Traceback (most recent call last):
    ...
    ValueError: ('x.json', 'not JSON: line 1 column 7: expecting value')
    >>> read_json('{"a": 1, "a": 2}', "x.json", ValueError)
    Traceback (most recent call last):
    ...
    ValueError: ('x.json', "not JSON this reader takes: the key 'a' appears twice in one object")
    """
    try:
        return json.loads(text, object_pairs_hook=_unique)
    except json.JSONDecodeError as exc:
        reason = f"not JSON: line {exc.lineno} column {exc.colno}: " \
                 f"{exc.msg[:1].lower()}{exc.msg[1:]}"
    except _RepeatedKeyError as exc:
        shown = exc.key if len(exc.key) <= 60 else f"{exc.key[:50]}..."
        reason = f"not JSON this reader takes: the key {shown!r} appears twice in one object"
    except RecursionError:
        reason = "not JSON: nested too deeply"
    except ValueError as exc:  # an integer of more digits than Python reads
        first = str(exc).split(";")[0].strip()
        reason = f"not JSON this reader takes: {(first[:1].lower() + first[1:])[:100]}"
    raise error(name, reason)

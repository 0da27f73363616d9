"""JSON text read for a certificate or a procedure, with one error for anything wrong."""

from __future__ import annotations

import json


def read_json(text: str, name: str, error: type[Exception]) -> object:
    """The JSON value in ``text``; ``error(name, reason)`` when it is not JSON
    this reader takes (bad syntax, nested too deeply, an integer of more
    digits than Python reads).

    >>> read_json('{"a": [1]}', "x.json", ValueError)
    {'a': [1]}
    >>> read_json('{"a": ', "x.json", ValueError)
    Traceback (most recent call last):
    ...
    ValueError: ('x.json', 'not JSON: line 1 column 7: expecting value')
    """
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        reason = f"not JSON: line {exc.lineno} column {exc.colno}: " \
                 f"{exc.msg[:1].lower()}{exc.msg[1:]}"
    except RecursionError:
        reason = "not JSON: nested too deeply"
    except ValueError as exc:  # an integer of more digits than Python reads
        first = str(exc).split(";")[0].strip()
        reason = f"not JSON this reader takes: {(first[:1].lower() + first[1:])[:100]}"
    raise error(name, reason)

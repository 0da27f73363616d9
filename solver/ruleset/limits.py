"""The limits a rule file is held to, and the lexical pre-scan that enforces them.

Any rule file is read or refused in bounded time and memory (rules/README.md,
"Limits"): its size in bytes and its number of ``[[rule]]`` tables, and,
checked by :func:`prescan` in one pass before tomllib runs, the nesting of
brackets, the parts of dotted keys, and the length of bare words and strings.
"""

from __future__ import annotations

import re

from solver.errors import InvalidRuleFileError, RuleFileError, quote

TYPE_CHECKING = False  # typing is the type checker's alone: importing it costs start-up
if TYPE_CHECKING:
    from typing import Final

#: Largest rule file read, in bytes (documented in rules/README.md, "Limits").
MAX_FILE_BYTES: Final = 64_000
#: Most ``[[rule]]`` tables a file may have (identical ones are then merged).
MAX_RULES: Final = 64
#: Deepest nesting of brackets and braces (``[[rule]]`` is 2).
MAX_DEPTH: Final = 8
#: Most parts of a dotted key (``a.b.c`` has 3).
MAX_KEY_PARTS: Final = 4
#: Longest bare word: a key, an integer or a boolean written without quotes.
MAX_WORD: Final = 40
#: Longest string, in characters between its quotes.
MAX_STRING: Final = 1_000


_BASIC_BODY: Final = re.compile(r'(?:[^"\\\n]+|\\.)*')
_LITERAL_BODY: Final = re.compile(r"[^'\n]*")
_WORD: Final = re.compile(r"[A-Za-z0-9_+-]+")
_BLANK: Final = frozenset(" \t")


def prescan(text: str, path: str = "<string>") -> None:
    """Refuse TOML text that breaks a lexical limit, in one linear pass.

    tomllib's time grows with the square of a dotted key's parts and its
    recursion with nesting, so those are checked here before it runs: nesting
    of brackets (:data:`MAX_DEPTH`), parts of a dotted key
    (:data:`MAX_KEY_PARTS`), bare words such as keys and integers
    (:data:`MAX_WORD`) and strings (:data:`MAX_STRING`). Comments and string
    contents are skipped. Errors name the line.

    >>> prescan("count = " + "[" * 9, "x.toml")
    Traceback (most recent call last):
    ...
    solver.errors.InvalidRuleFileError: x.toml:1: brackets nested deeper than 8
    """
    i, n, depth, dots = 0, len(text), 0, 0

    def fail(at: int, message: str) -> RuleFileError:
        return InvalidRuleFileError(path, message, line=text.count("\n", 0, at) + 1)

    while i < n:
        char = text[i]
        if char == "#":
            end = text.find("\n", i)
            i = n if end < 0 else end
            continue
        if char in "\"'":
            start, i = i, _string_end(text, i)
            length = i - start - (6 if text.startswith(char * 3, start) else 2)
            if length > MAX_STRING:
                raise fail(start, f"a string of over {MAX_STRING:,} characters")
            continue
        if char in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                raise fail(i, f"brackets nested deeper than {MAX_DEPTH}")
            dots = 0
        elif char in "]}":
            depth = max(0, depth - 1)
            dots = 0
        elif char == ".":
            dots += 1
            if dots >= MAX_KEY_PARTS:
                raise fail(i, f"a dotted key of over {MAX_KEY_PARTS} parts")
        elif char in _BLANK:
            pass
        else:
            found = _WORD.match(text, i)
            if found is None:
                dots = 0
            else:
                if found.end() - i > MAX_WORD:
                    raise fail(i, f"a key or number of over {MAX_WORD} characters: "
                                  f"{quote(found.group())}")
                i = found.end()
                continue
        i += 1


def _string_end(text: str, start: int) -> int:
    """Where the string (or quoted key) opening at ``start`` ends, past its quotes."""
    char = text[start]
    if text.startswith(char * 3, start):
        at = start + 3
        while True:
            end = text.find(char * 3, at)
            if end < 0:
                return len(text)
            slashes = 0
            while char == '"' and text[end - 1 - slashes] == "\\":
                slashes += 1
            if slashes % 2 == 0:
                while text.startswith(char, end + 3):  # up to two quotes may end the body
                    end += 1
                return end + 3
            at = end + 1
    body = (_BASIC_BODY if char == '"' else _LITERAL_BODY).match(text, start + 1)
    end = body.end() if body else start + 1
    return end + 1 if text.startswith(char, end) else end

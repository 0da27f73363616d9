"""Where the documentation now lives, for the tests that hold it to the code.

README.md is the front door; the manual is the pages under ``docs/`` (Sphinx
and MyST Markdown). A test that checks a registry or a feature is documented
reads the page where it is documented (:func:`page`), or all of it
(:func:`documentation`). In an installed-package run neither is beside the
tests: :func:`page` and :func:`documentation` skip the test, saying why.
"""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"

#: The page that holds the tables of ``--format``, ``--dialect`` and ``--variant``.
FORMATS = DOCS / "reference" / "formats.md"
#: The page that holds the table of every numbering, with its source.
NUMBERINGS = DOCS / "reference" / "numberings.md"
#: The page that explains the package's layout (its tree, held equal to the code).
DEVELOPMENT = DOCS / "explanation" / "development.md"
#: The page that publishes the seed recipe and its test vectors.
RANDOM_DRAWS = DOCS / "how-to" / "random-draws.md"


def pages() -> list[Path]:
    """README.md, then every Markdown page under ``docs/``, in path order."""
    found = [ROOT / "README.md"] if (ROOT / "README.md").is_file() else []
    return found + (sorted(DOCS.rglob("*.md")) if DOCS.is_dir() else [])


def page(path: Path) -> str:
    """The text of one documentation page; skips when it is not beside the tests."""
    if not path.is_file():
        pytest.skip(f"{path.relative_to(ROOT)} is not beside the tests (installed-package run)")
    return path.read_text(encoding="utf-8")


def documentation() -> str:
    """README.md and every page under ``docs/``, joined; skips when there are none."""
    found = pages()
    if not found:
        pytest.skip("no documentation beside the tests (installed-package run)")
    return "\n".join(p.read_text(encoding="utf-8") for p in found)

"""Sphinx configuration of the chess960 documentation (docs/).

Markdown pages (MyST-Parser), the Furo theme, the Python API from its
docstrings (autodoc). Built offline, with warnings as errors:

    sphinx-build -W --keep-going -n -b html docs docs/_build/html

(``pip install -e '.[docs]'`` installs the tools.) Nothing here reaches the
network: no intersphinx, no remote images.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the source tree's solver, not an installed one

from solver import __version__  # noqa: E402

project = "chess960"
author = "chess960 maintainers"
copyright = "2026, chess960 maintainers"
version = release = __version__

extensions = ["myst_parser", "sphinx.ext.autodoc"]
source_suffix = {".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store"]
# `--rules` stays two hyphens (not an en dash), quotes stay as typed
smartquotes = False

# -- MyST ---------------------------------------------------------------------------------
# Pages link to each other with plain relative Markdown links (`[x](../reference/rules.md)`);
# headings get anchors (`#a-first-file`) as on GitHub, so the READMEs' links work here too.
myst_heading_anchors = 4
myst_enable_extensions = ["colon_fence", "deflist"]

# -- autodoc --------------------------------------------------------------------------------
autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_typehints_format = "short"
autodoc_default_options = {"members": True, "show-inheritance": True}
# Type hints name the library's internals and the standard library; those pages are
# not in this site (no intersphinx: the build is offline). Anything else unresolved fails.
nitpick_ignore_regex = [
    (r"py:.*", r"(solver\.|collections\.abc\.|typing\.|pathlib\.|enum\.|_io\.|io\.).*"),
    # bare names: type hints the type checker alone imports (autodoc cannot qualify them) and
    # docstrings' references to internals (`:class:`InputFileError``) not on these pages
    (r"py:(class|data|attr|func|meth|exc|obj)", r"~?_?[A-Za-z][A-Za-z0-9_]*"),
    (r"py:class", r"(int|str|bytes|bool|float|object|dict|list|tuple|set|frozenset|type"
                  r"|None|Path|Iterator|Iterable|Sequence|Mapping|Callable|Any|TextIO"
                  r"|BinaryIO|ValueError|TypeError|KeyError|LookupError|Exception)"),
]

# -- HTML -----------------------------------------------------------------------------------
html_theme = "furo"
html_title = f"chess960 {release}"
html_static_path: list[str] = []


# -- files included from outside docs/ (rules/README.md) --------------------------------------
# Their relative links are the repository's: a link to a file some page includes goes to that
# page; a link into docs/ stays; a link to a file the site does not carry becomes its text.
INCLUDE = re.compile(r"^[`:]{3,}\{include\}\s+(\S+)", re.MULTILINE)
LINK = re.compile(r"(?<!!)\[([^\]]*)\]\(([^)\s#]+)(#[^)\s]*)?\)")
DOCS = Path(__file__).resolve().parent


def _included() -> dict[Path, str]:
    """Each file a page includes, with the page (its path from docs/)."""
    found = {}
    for page in DOCS.rglob("*.md"):
        if "_build" in page.parts:
            continue
        for target in INCLUDE.findall(page.read_text(encoding="utf-8")):
            found[(page.parent / target).resolve()] = page.relative_to(DOCS).as_posix()
    return found


def _relink(app: Any, relative_path: Path, parent_docname: str, content: list[str]) -> None:
    source = (Path(app.srcdir) / relative_path).resolve()
    if source.is_relative_to(DOCS):
        return
    included = _included()

    def link(match: re.Match[str]) -> str:
        text, target, anchor = match.group(1), match.group(2), match.group(3) or ""
        if "://" in target or target.startswith(("mailto:", "/")):
            return match.group(0)
        path = (source.parent / target).resolve()
        if path.is_relative_to(DOCS):
            return f"[{text}](/{path.relative_to(DOCS).as_posix()}{anchor})"
        if path in included:
            return f"[{text}](/{included[path]}{anchor})"
        return text

    content[0] = LINK.sub(link, content[0])


def setup(app: Any) -> dict[str, Any]:
    app.connect("include-read", _relink)
    return {"parallel_read_safe": True}

"""The documentation site (docs/): the command reference is the Typer app's
``--help``, the rule-file reference includes rules/README.md (not a copy), the
API page follows ``solver``'s ``__all__``; the licence ships; the site builds
with warnings as errors (slow).

The pages' console examples run in tests/test_readme_console.py, their
``>>>`` examples as doctests (pyproject's ``--doctest-glob``).
"""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import make_commands_page
import pytest
import typer

from solver.cli.entry import dispatch

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
REGENERATE = f"regenerate it with `{make_commands_page.REGENERATE}`"

pytestmark = pytest.mark.skipif(not (DOCS / "conf.py").exists(),
                                reason="no docs/ here (an installed package)")


def _typer_made_the_page_newer() -> str | None:
    """The Typer that made the checked-in page, when it is newer than this one
    (an older Typer words help differently: CI's lowest-versions job)."""
    head = make_commands_page.PAGE.read_text(encoding="utf-8")[:400]
    found = re.search(r"\(Typer ([0-9.]+)\)", head)
    if found is None:
        return None
    made = tuple(int(part) for part in found.group(1).split("."))
    here = tuple(int(part) for part in re.findall(r"\d+", typer.__version__)[:3])
    return found.group(1) if here < made else None


def test_the_command_reference_is_made_from_the_typer_app() -> None:
    checked_in = make_commands_page.PAGE.read_text(encoding="utf-8")
    note = re.search(r" \(Typer [0-9.]+\)", checked_in)
    made = make_commands_page.page(note.group(0) if note else "")
    if made != checked_in and (older := _typer_made_the_page_newer()):
        pytest.skip(f"the page was made with Typer {older}, which words help otherwise than "
                    f"Typer {typer.__version__}; CI's main run compares it")
    assert made == checked_in, f"docs/reference/commands.md is not the Typer app's: {REGENERATE}"


def _sections() -> dict[str, str]:
    """Each command's ``--help`` as the page shows it, by its words (``games stats``)."""
    text = make_commands_page.PAGE.read_text(encoding="utf-8")
    return {words.strip(): shown for words, shown in
            re.findall(r"^## chess960([^\n]*)\n\n[^\n]*\n\n```text\n(.*?)^```$", text,
                       re.MULTILINE | re.DOTALL)}


def _help(words: str, monkeypatch: pytest.MonkeyPatch) -> str:
    """What ``chess960 WORDS --help`` prints in an 80-column terminal (run here)."""
    import io

    out = io.StringIO()
    monkeypatch.setenv("COLUMNS", "80")
    with monkeypatch.context() as patch:
        patch.setattr(sys, "stdout", out)
        patch.setattr(sys, "stderr", out)
        code = dispatch([*words.split(), "--help"])
    assert code == 0, out.getvalue()
    return out.getvalue()


def test_each_section_is_what_help_prints(monkeypatch: pytest.MonkeyPatch) -> None:
    sections = _sections()
    words = [w for w, _, _ in make_commands_page.commands()]
    assert list(sections) == words, f"the page's commands are not the app's: {REGENERATE}"
    assert {"solve", "id", "games", "games stats"} <= set(sections)
    for name, shown in sections.items():
        printed = _help(name, monkeypatch)
        if printed != shown and _typer_made_the_page_newer():
            pytest.skip(f"an older Typer ({typer.__version__}) words help otherwise")
        assert printed == shown, \
            f"`chess960 {name} --help` prints otherwise than the page: {REGENERATE}"


@pytest.mark.slow
@pytest.mark.parametrize("words", ["", "solve", "games stats"])
def test_the_installed_command_prints_the_page(words: str) -> None:
    """The installed ``chess960`` (its own process), in a terminal of 80 columns."""
    command = Path(sys.executable).with_name("chess960")
    if not command.exists():
        pytest.skip(f"no installed chess960 beside {sys.executable}")
    done = subprocess.run([str(command), *words.split(), "--help"], capture_output=True,
                          text=True, env={**os.environ, "COLUMNS": "80"}, check=True)
    assert done.stdout == _sections()[words], f"`chess960 {words} --help`: {REGENERATE}"


def test_every_option_of_every_command_is_on_the_page() -> None:
    """Each option's names and choices (the declarations), found in its command's section."""
    sections = _sections()
    for words, command, context in make_commands_page.commands():
        for param in command.get_params(context):
            for name in [*param.opts, *param.secondary_opts]:
                if name.startswith("-"):
                    assert re.search(rf"(^|[\s,]){re.escape(name)}\b", sections[words]), \
                        (words, name)


def test_the_rules_reference_includes_rules_readme() -> None:
    page = (DOCS / "reference" / "rules.md").read_text(encoding="utf-8")
    assert re.fullmatch(r"```\{include\} \.\./\.\./rules/README\.md\n```\n", page), page


def test_the_api_page_documents_solvers_public_names() -> None:
    page = (DOCS / "reference" / "api.md").read_text(encoding="utf-8")
    assert re.search(r"^\.\. automodule:: solver\n   :members:$", page, re.MULTILINE), page


def test_every_page_is_in_a_toctree() -> None:
    """index.md globs each section, so a new page is listed without editing it."""
    index = (DOCS / "index.md").read_text(encoding="utf-8")
    for section in ("tutorials", "how-to", "reference", "explanation"):
        assert f"\n{section}/*\n" in index, section
        assert list((DOCS / section).glob("*.md")), f"docs/{section}/ has no page"


def test_the_licence_is_mit_and_declared() -> None:
    licence = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert licence.startswith("MIT License\n\nCopyright (c) 2026 chess960 maintainers\n")
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert 'license = "MIT"\nlicense-files = ["LICENSE"]' in pyproject
    assert (ROOT / "CHANGELOG.md").read_text(encoding="utf-8").startswith("# Changelog\n")


@pytest.mark.slow
def test_the_sdist_and_the_wheel_ship_the_licence(tmp_path: Path) -> None:
    if importlib.util.find_spec("build") is None:
        pytest.skip("the build package is not installed (the dev extra)")
    done = subprocess.run([sys.executable, "-m", "build", "--sdist", "--wheel", "--outdir",
                           str(tmp_path), str(ROOT)], capture_output=True, text=True,
                          timeout=600, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    (wheel,) = tmp_path.glob("*.whl")
    (sdist,) = tmp_path.glob("*.tar.gz")
    licence = (ROOT / "LICENSE").read_bytes()
    with zipfile.ZipFile(wheel) as archive:
        names = [n for n in archive.namelist() if n.endswith(".dist-info/licenses/LICENSE")]
        assert len(names) == 1, archive.namelist()
        assert archive.read(names[0]) == licence
        metadata = next(n for n in archive.namelist() if n.endswith(".dist-info/METADATA"))
        assert "License-File: LICENSE" in archive.read(metadata).decode()
    with tarfile.open(sdist) as archive:
        top = archive.getnames()[0].split("/")[0]
        for name in ("LICENSE", "CHANGELOG.md", "docs/conf.py", "docs/reference/commands.md"):
            assert f"{top}/{name}" in archive.getnames(), name
        member = archive.extractfile(f"{top}/LICENSE")
        assert member is not None and member.read() == licence


@pytest.mark.slow
def test_the_site_builds_with_warnings_as_errors(tmp_path: Path) -> None:
    if importlib.util.find_spec("sphinx") is None or importlib.util.find_spec(
            "myst_parser") is None or importlib.util.find_spec("furo") is None:
        pytest.skip("sphinx, myst-parser or furo is not installed (the docs extra)")
    done = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-n", "-q",
                           "-b", "html", str(DOCS), str(tmp_path / "html")],
                          capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert (tmp_path / "html" / "reference" / "commands.html").exists()

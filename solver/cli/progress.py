"""Progress bars on stderr for long runs, only when a person is watching.

:class:`Watched` is the one bar: silent for the first second, so short runs
never show it, and when stderr is not a terminal (or the results go to one);
then a Rich bar, Rich imported only when it appears, gone (its line erased)
once :meth:`Watched.close` returns, so callers write their results after
closing it. The delay can be set with the environment variable
``CHESS960_PROGRESS_DELAY`` (seconds). Its kinds: :class:`SolveProgress`,
the ranks found (the ``progress`` callback of :meth:`Family.positions
<solver.family.Family.positions>` or :meth:`Family.total
<solver.family.Family.total>`); :class:`ReadProgress`, the bytes ``games``
has read; :class:`CountProgress`, the positions ``book`` has written.
"""

from __future__ import annotations

import os
import sys
import time
from types import TracebackType
from typing import TYPE_CHECKING, Any, Self, TextIO

if TYPE_CHECKING:
    from solver.family import Family

#: Seconds a solve runs before the bar appears.
DELAY = 1.0


def _delay() -> float:
    try:
        return max(0.0, float(os.environ.get("CHESS960_PROGRESS_DELAY", DELAY)))
    except ValueError:
        return DELAY

#: Fewest seconds between two redraws.
REFRESH = 0.1


class Watched:
    """A progress line on ``stream`` (stderr) for a person watching: silent for
    the first ``delay`` seconds, and when ``stream`` is not a terminal or
    ``output`` (where the results go) is one, since the results then show the
    progress themselves; then a Rich bar of :meth:`columns`, redrawn at most
    every :data:`REFRESH` seconds and erased by :meth:`close`."""

    #: The bar's end (None: no end known).
    total: int | None = None

    def __init__(self, stream: TextIO | None = None, delay: float | None = None,
                 output: TextIO | None = None) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.output = output
        self.delay = _delay() if delay is None else delay
        self.start = time.monotonic()
        self.shown = 0.0
        self._bar: Any = None
        self._task: Any = None
        self._interactive: bool | None = None

    def __enter__(self) -> Self:
        self.start = time.monotonic()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()

    def columns(self) -> list[Any]:
        """The bar's Rich columns (Rich imported)."""
        raise NotImplementedError

    def _due(self) -> bool:
        """Whether to redraw the bar now (it is opened the first time)."""
        now = time.monotonic()
        if self._bar is None:
            if now - self.start < self.delay or not self._watched():
                return False
            from rich.console import Console
            from rich.progress import Progress

            self._bar = Progress(
                *self.columns(),
                console=Console(file=self.stream),
                transient=True,
                auto_refresh=False,  # no thread: redrawn from the working loop
                redirect_stdout=False,  # the results are written by the caller, after the bar
                redirect_stderr=False,
            )
            self._task = self._bar.add_task("", total=self.total, rate="")
            self._bar.start()
        if now - self.shown < REFRESH:
            return False
        self.shown = now
        return True

    def _draw(self, **fields: Any) -> None:
        self._bar.update(self._task, **fields)
        self._bar.refresh()

    def _watched(self) -> bool:
        if self._interactive is None:
            try:
                self._interactive = self.stream.isatty() and not (
                    self.output is not None and self.output.isatty())
            except (AttributeError, ValueError, OSError):
                self._interactive = False
        return self._interactive

    def close(self) -> None:
        """Remove the bar, if it was shown."""
        if self._bar is not None:
            bar, self._bar = self._bar, None
            bar.stop()  # transient: erases its own lines
            self.stream.flush()


class SolveProgress(Watched):
    """Counts ranks found; shows a bar on a terminal once a solve takes long."""

    def __init__(
        self,
        family: Family,
        stream: TextIO | None = None,
        delay: float | None = None,
        output: TextIO | None = None,
    ) -> None:
        """``output``: where the results go while the bar runs; when that is
        a terminal, the results themselves show the progress, and no bar does."""
        super().__init__(stream, delay, output)
        self.name = family.name
        counted = family.ruleset.numbering == "arithmetic"
        self.total: int | None = family.numbering.count if counted else None
        self.found = 0

    def __call__(self, found: int) -> None:
        """The solver has found ``found`` ranks so far."""
        self.found = found
        if self._due():
            rate = found / max(self.shown - self.start, 1e-9)
            self._draw(completed=found, rate=f"{rate:,.0f} ranks/s")

    def columns(self) -> list[Any]:
        from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn

        return [
            TextColumn(f"solving {self.name}"),
            BarColumn(),
            MofNCompleteColumn() if self.total else TextColumn("{task.completed:,} ranks"),
            TextColumn("{task.fields[rate]}"),
            TimeElapsedColumn(),
        ]


class ReadProgress(Watched):
    """Bytes read and the rate, as ``<what>: N MB read, R MB/s`` (``games``)."""

    def __init__(self, stream: TextIO, what: str) -> None:
        super().__init__(stream)
        self.what = what
        self.read = 0

    def __call__(self, size: int) -> None:
        """``size`` more bytes were read."""
        self.read += size
        if self._due():
            rate = self.read / max(self.shown - self.start, 1e-9) / 1e6
            self._draw(description=f"{self.what}: {self.read / 1e6:,.0f} MB read, "
                                   f"{rate:,.0f} MB/s")

    def columns(self) -> list[Any]:
        from rich.progress import TextColumn, TimeElapsedColumn

        return [TextColumn("{task.description}"), TimeElapsedColumn()]


class CountProgress(Watched):
    """``<what>``: a bar of the positions done of all (``book``)."""

    def __init__(self, stream: TextIO, what: str, output: TextIO | None = None) -> None:
        super().__init__(stream, output=output)
        self.what = what

    def __call__(self, done: int, total: int) -> None:
        """``done`` positions of ``total`` are written."""
        if self._due():
            self._draw(completed=done, total=total)

    def columns(self) -> list[Any]:
        from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn

        return [TextColumn(self.what), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn()]

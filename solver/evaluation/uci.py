"""A small client for UCI engines (Stockfish, Fairy-Stockfish, any other).

It speaks only what an evaluation needs: ``uci`` (the engine's name and
options), ``setoption``, ``isready``, ``ucinewgame``, ``position fen``,
``go nodes N`` / ``go depth N``, and reads ``info ... score cp|mate ... wdl``
and ``bestmove``. Lines the client does not know are ignored, as the protocol
says. Every wait has a time limit; an engine that exits, stops answering, or
gives a ``bestmove`` with no score before it is one
:class:`~solver.errors.EngineError` naming the engine and what it was doing.

Why not a library: python-chess's engine module is GPL (a test oracle here
only), and ``esca`` (MIT) needs Python 3.12 and builds its own board from the
FEN, so it could not pass a Capablanca FEN through to Fairy-Stockfish.

>>> parse_info("info depth 8 seldepth 6 score cp 55 wdl 122 877 1 upperbound nodes 2000 time 4")
Info(depth=8, nodes=2000, time=0.004, cp=55, mate=None, wdl=(122, 877, 1), bound=True)
"""

from __future__ import annotations

import os
import queue
import shutil
import subprocess
import threading
import time
from dataclasses import dataclass, field
from typing import Final

from solver.errors import EngineError, quote

#: Seconds the engine has to answer ``uci`` and ``isready``.
HANDSHAKE_TIMEOUT: Final = 30.0

#: Where Debian installs engines (not always on ``PATH``).
GAMES_DIR: Final = "/usr/games"

#: The longest line read from an engine (characters): a longer one is an error.
MAX_LINE: Final = 64 << 10

#: The longest engine name (``id name``) taken: it goes into every row of a table.
MAX_NAME: Final = 1000

#: The most digits a number in an ``info`` line may have (an int64 has 19).
MAX_DIGITS: Final = 18

#: Seconds an engine has to leave after ``quit`` when a run is stopped.
QUIT_GRACE: Final = 0.5

#: The engine processes running now (ended by :func:`stop_engines`).
_RUNNING: set[subprocess.Popen[str]] = set()
_RUNNING_LOCK = threading.Lock()


@dataclass(frozen=True)
class Info:
    """What one ``info`` line says (``None``: not said)."""

    depth: int | None = None
    nodes: int | None = None
    time: float | None = None
    cp: int | None = None
    mate: int | None = None
    wdl: tuple[int, int, int] | None = None
    bound: bool = False


def _integer(word: str) -> int:
    """An integer of at most :data:`MAX_DIGITS` digits (a sign allowed).

    Raises :class:`ValueError` for anything else.

    >>> _integer("-42")
    -42
    >>> _integer("9" * 400)
    Traceback (most recent call last):
    ...
    ValueError: over 18 digits
    """
    if len(word.lstrip("+-")) > MAX_DIGITS:
        raise ValueError(f"over {MAX_DIGITS} digits")
    return int(word)


def parse_info(line: str) -> Info:
    """The fields of an ``info`` line an evaluation uses.

    Raises :class:`ValueError` for a score or count that is not a number (or
    one of over :data:`MAX_DIGITS` digits).

    >>> parse_info("info depth 3 score mate -2 nodes 10").mate
    -2
    """
    words = line.split()
    found: dict[str, object] = {}
    i = 1
    while i < len(words):
        word = words[i]
        if word in ("depth", "nodes") and i + 1 < len(words):
            found[word] = _integer(words[i + 1])
            i += 2
        elif word == "time" and i + 1 < len(words):
            found["time"] = _integer(words[i + 1]) / 1000
            i += 2
        elif word == "score" and i + 2 < len(words):
            kind, value = words[i + 1], _integer(words[i + 2])
            if kind not in ("cp", "mate"):
                raise ValueError(f"score kind {kind!r}")
            found[kind] = value
            i += 3
        elif word == "wdl" and i + 3 < len(words):
            found["wdl"] = (_integer(words[i + 1]), _integer(words[i + 2]),
                            _integer(words[i + 3]))
            i += 4
        elif word in ("lowerbound", "upperbound"):
            found["bound"] = True
            i += 1
        elif word in ("pv", "string"):
            break  # the rest is moves or text
        else:
            i += 1
    return Info(**found)  # type: ignore[arg-type]


@dataclass(frozen=True)
class Option:
    """One option the engine offers: its type and, for a combo, its choices."""

    name: str
    kind: str
    choices: tuple[str, ...] = ()


def parse_option(line: str) -> Option | None:
    """An ``option name ... type ...`` line (``None``: not one).

    >>> parse_option("option name UCI_Variant type combo default chess var chess var capablanca")
    Option(name='UCI_Variant', kind='combo', choices=('chess', 'capablanca'))
    """
    words = line.split()
    if len(words) < 5 or words[1] != "name" or "type" not in words:
        return None
    at = words.index("type")
    name = " ".join(words[2:at])
    kind = words[at + 1] if at + 1 < len(words) else ""
    choices = tuple(words[i + 1] for i in range(at, len(words) - 1) if words[i] == "var")
    return Option(name, kind, choices)


def find_engine(engine: str) -> str:
    """The program ``engine`` names: a path (with a slash), or a name looked up on
    ``PATH`` and then in ``/usr/games``, where Debian installs engines.

    Raises :class:`~solver.errors.EngineError` when there is no such program.
    """
    if os.sep in engine or (os.altsep and os.altsep in engine):
        if os.path.isfile(engine) and os.access(engine, os.X_OK):
            return engine
        raise EngineError(engine, "no such program (not an executable file)")
    found = shutil.which(engine) or shutil.which(engine, path=GAMES_DIR)
    if found is None:
        raise EngineError(engine, f"not found on PATH nor in {GAMES_DIR}: install it "
                                  "or give its path")
    return found


@dataclass(frozen=True)
class Result:
    """An evaluation: the last score the engine gave (White's point of view when
    White is to move), and what the search reached."""

    cp: int | None
    mate: int | None
    wdl: tuple[int, int, int] | None
    depth: int | None
    nodes: int | None
    time: float | None
    bestmove: str


@dataclass
class Engine:
    """A running UCI engine (``with Engine(path) as engine: ...``)."""

    engine: str
    timeout: float = 600.0
    name: str = ""
    options: dict[str, Option] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._path = find_engine(self.engine)
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._too_long = False
        try:
            self._process = subprocess.Popen(
                [self._path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL, text=True, encoding="utf-8", errors="replace",
                bufsize=1)
        except OSError as exc:
            raise EngineError(self.engine, f"cannot start: {(exc.strerror or exc)}") from None
        with _RUNNING_LOCK:
            _RUNNING.add(self._process)
        threading.Thread(target=self._read, daemon=True).start()
        try:
            self._handshake()
        except BaseException:
            self.close()
            raise

    def __enter__(self) -> Engine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _read(self) -> None:
        stdout = self._process.stdout
        assert stdout is not None
        try:
            while line := stdout.readline(MAX_LINE + 1):
                if len(line) > MAX_LINE and not line.endswith("\n"):
                    self._too_long = True  # nothing more is read: the engine is ended
                    break
                self._lines.put(line.rstrip("\r\n"))
        except (OSError, ValueError):
            pass
        self._lines.put(None)

    def send(self, line: str) -> None:
        """Write one command line to the engine."""
        stdin = self._process.stdin
        assert stdin is not None
        try:
            stdin.write(line + "\n")
            stdin.flush()
        except (OSError, ValueError):
            first = line.split(maxsplit=1)[0]
            raise EngineError(self.engine, self._gone(f"sending {first!r}")) from None

    def _gone(self, doing: str) -> str:
        try:
            code = self._process.wait(timeout=1)
        except subprocess.TimeoutExpired:
            return f"closed its output while {doing}"
        return f"exited with code {code} while {doing}"

    def expect(self, doing: str, timeout: float, total: float | None = None) -> str:
        """The next line the engine writes, within ``timeout`` seconds (what is
        left of ``total``, which an error names)."""
        try:
            line = self._lines.get(timeout=timeout)
        except queue.Empty:
            shown = timeout if total is None else total
            raise EngineError(self.engine, f"no answer within {shown:g} s while "
                                           f"{doing}") from None
        if line is None:
            self._lines.put(None)  # every later wait sees the end too
            if self._too_long:
                raise EngineError(self.engine, f"wrote a line over {MAX_LINE >> 10} KiB "
                                               f"while {doing}")
            raise EngineError(self.engine, self._gone(doing))
        return line

    def _until(self, word: str, doing: str, timeout: float) -> list[str]:
        deadline = time.monotonic() + timeout
        seen = []
        while True:
            line = self.expect(doing, max(0.0, deadline - time.monotonic()), timeout)
            seen.append(line)
            if line.split()[:1] == [word]:
                return seen

    def _handshake(self) -> None:
        self.send("uci")
        for line in self._until("uciok", "waiting for 'uciok' after 'uci'", HANDSHAKE_TIMEOUT):
            if line.startswith("id name "):
                self.name = line[len("id name "):].strip()
                if len(self.name) > MAX_NAME:
                    raise EngineError(self.engine, f"gave a name of {len(self.name):,} "
                                                   f"characters (at most {MAX_NAME:,})")
            option = parse_option(line)
            if option is not None:
                self.options[option.name] = option
        if not self.name:
            self.name = os.path.basename(self._path)

    def set_option(self, name: str, value: str) -> None:
        """``setoption name NAME value VALUE``."""
        self.send(f"setoption name {name} value {value}")

    def ready(self) -> None:
        """``isready``, and wait for ``readyok``."""
        self.send("isready")
        self._until("readyok", "waiting for 'readyok'", HANDSHAKE_TIMEOUT)

    def analyse(self, fen: str, *, nodes: int | None = None, depth: int | None = None
                ) -> Result:
        """Search the position ``fen`` from a new game to ``nodes`` or ``depth``.

        The score is the last one the engine gave before ``bestmove`` (a bound
        included, as python-chess's ``analyse`` reports it), as the side to
        move sees it.
        """
        self.send("ucinewgame")
        self.ready()
        self.send(f"position fen {fen}")
        limit = f"nodes {nodes}" if nodes is not None else f"depth {depth}"
        self.send(f"go {limit}")
        score: Info | None = None
        reached = Info()
        deadline = time.monotonic() + self.timeout
        doing = f"searching {quote(fen)} ({limit})"
        while True:
            line = self.expect(doing, max(0.0, deadline - time.monotonic()), self.timeout)
            head = line.split()[:1]
            if head == ["bestmove"]:
                break
            if head != ["info"]:
                continue
            try:
                info = parse_info(line)
            except ValueError:
                raise EngineError(self.engine, f"sent an info line that cannot be read while "
                                               f"{doing}: {quote(line)}") from None
            if info.depth is not None or info.nodes is not None:
                reached = Info(info.depth if info.depth is not None else reached.depth,
                               info.nodes if info.nodes is not None else reached.nodes,
                               info.time if info.time is not None else reached.time)
            if info.cp is not None or info.mate is not None:
                score = info
        if score is None:
            raise EngineError(self.engine, f"gave 'bestmove' with no score before it while "
                                           f"{doing}")
        words = line.split()
        return Result(score.cp, score.mate, score.wdl, reached.depth, reached.nodes,
                      reached.time, words[1] if len(words) > 1 else "")

    def close(self) -> None:
        """``quit``, then end the process if it has not gone within a second."""
        process = self._process
        if process.poll() is None:
            try:
                assert process.stdin is not None
                process.stdin.write("quit\n")
                process.stdin.flush()
            except (OSError, ValueError):
                pass
            _end(process, 1.0)
        with _RUNNING_LOCK:
            _RUNNING.discard(process)
        for stream in (process.stdin, process.stdout):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass


def _end(process: subprocess.Popen[str], grace: float) -> None:
    """Wait ``grace`` seconds for ``process`` to exit, then terminate it, then kill it."""
    for stop in (None, process.terminate, process.kill):
        if stop is not None:
            try:
                stop()
            except OSError:  # pragma: no cover - gone meanwhile
                return
        try:
            process.wait(timeout=grace)
            return
        except subprocess.TimeoutExpired:
            continue


def stop_engines(grace: float = QUIT_GRACE) -> None:
    """End every engine process running (a run stopped by Ctrl-C or SIGTERM, from
    a signal handler too): ``quit`` written to each, ``grace`` seconds for all to
    leave, then SIGTERM, then SIGKILL for those still there."""
    held = _RUNNING_LOCK.acquire(timeout=0.1)  # the interrupted thread may hold it
    try:
        running = [p for p in list(_RUNNING) if p.poll() is None]
    except RuntimeError:  # pragma: no cover - changed meanwhile, without the lock
        running = [p for p in list(_RUNNING) if p.poll() is None]
    finally:
        if held:
            _RUNNING_LOCK.release()
    for process in running:  # os.write: the text stream may be mid-write in a thread
        try:
            assert process.stdin is not None
            os.write(process.stdin.fileno(), b"quit\n")
        except (OSError, ValueError):
            pass
    deadline = time.monotonic() + grace
    for process in running:
        try:
            process.wait(timeout=max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            _end(process, grace / 2)

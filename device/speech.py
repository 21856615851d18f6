"""Speech: the arbiter's events said aloud, in English or Dutch, from a queue on its own thread.

- `Announcer` turns an event of `rules.events` into sentences in the configured language, from
  the tables in `device.phrases` (it decides nothing: it keeps only what it said last about the
  counters, so that a blocked king or the seven-move count is said once per change).
- `Speaker` speaks sentences from a queue on its own thread: ``say()`` never waits.  Every
  sentence said is logged (``said: ...``) and kept in ``history``.
- Backends, behind one small interface (``speak(text) -> Spoken``, ``close()``):
  `EspeakBackend` (pyttsx3 on espeak-ng, in a worker process, `device.speech_worker`, that plays
  through ``aplay`` or writes WAV files into a folder, with a ``spoken.tsv`` index of what each
  file says), and `SilentBackend` when there is no speech engine or speech is off (it says why
  once in the log).
- `open_speech(config, wav_dir=None)` builds the right one.

Hangs: pyttsx3's ``runAndWait`` can hang.  The worker process is given a time limit per sentence
(``timeout + seconds per character``); past it, it is killed and started again for the next
sentence.  After ``max_failures`` failures in a row the speaker goes silent and says so once.
"""

from __future__ import annotations

import json
import logging
import os
import re
import select
import signal
import subprocess
import sys
import threading
import time
from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Mapping, Protocol

from device.config import SpeechConfig
from device.errors import SpeechError
from device.phrases import PHRASES, VOICES
from rules.events import (CountersChanged, CrownPending, DrawPossible, Event, GameOver, Irregularity,
                          IrregularityResolved, IrregularityStands, LostTrack, MovePlayed, MoveTakenBack,
                          TouchMove)
from rules.piece import Color

log = logging.getLogger(__name__)

#: At most this many legal moves are read out after an irregularity.
MAX_LEGAL_SAID = 4


# --------------------------------------------------------------------------- sentences


class Announcer:
    """Events -> sentences in ``language`` (``en`` or ``nl``); with a ``speaker``, also says them."""

    def __init__(self, language: str = "en", announce_moves: bool = False, speaker: "Speaker | None" = None) -> None:
        if language not in PHRASES:
            raise ValueError(f"no phrases for language {language!r}: use {', '.join(PHRASES)}")
        self.language = language
        self.announce_moves = announce_moves
        self.speaker = speaker
        self._t: Mapping[str, str] = PHRASES[language]
        self._blocked: dict[Color, int | None] = {Color.WHITE: None, Color.BLACK: None}
        self._seven: int | None = None

    def reset(self) -> None:
        """A new game: forget what was said about the counters."""
        self._blocked = {Color.WHITE: None, Color.BLACK: None}
        self._seven = None

    def on_event(self, event: Event) -> list[str]:
        """The sentences for ``event`` (often none), said through the speaker if there is one."""
        said = self.sentences(event)
        if self.speaker is not None:
            for s in said:
                self.speaker.say(s)
        return said

    def sentences(self, event: Event) -> list[str]:
        t = self._t
        if isinstance(event, MovePlayed):
            return [t["move"].format(side=self.side(event.color), move=self.move(event.text))] if self.announce_moves else []
        if isinstance(event, Irregularity):
            out = [t["irregular"].format(side=self.side(event.color), article=self.article(event.article),
                                         summary=t[f"summary.{event.kind.name}"]),
                   t[f"remedy.{event.kind.name}"].format(square=event.square if event.square is not None else "",
                                                          played=self.move(event.played or ""))]
            return out + self._legal(event.legal)
        if isinstance(event, TouchMove):
            return [t["touch_move"].format(side=self.side(event.color), square=event.square)] + self._legal(event.legal)
        if isinstance(event, CrownPending):
            return [t["crown"].format(side=self.side(event.color), square=event.square)]
        if isinstance(event, LostTrack):
            said = (t["lost"].format(move=self.move(event.since)) if event.since
                    else t["lost_at_start"])
            return [said, t["lost_remedy"]]
        if isinstance(event, IrregularityResolved):
            return [t["resolved"]]
        if isinstance(event, IrregularityStands):
            return [t["stands"].format(played=self.move(event.played))]
        if isinstance(event, CountersChanged):
            return self._counters(event)
        if isinstance(event, DrawPossible):
            return [t["draw_possible"]]
        if isinstance(event, MoveTakenBack):
            return [t["taken_back"].format(move=self.move(event.text))]
        if isinstance(event, GameOver):
            reason = t.get(f"termination.{event.reason}", event.reason)
            if event.winner is None:
                return [t["draw"].format(reason=reason)]
            return [t["win"].format(side=self.side(event.winner), reason=reason)]
        return []  # ScoresheetComment, LookAgain: nothing to say

    def _counters(self, event: CountersChanged) -> list[str]:
        out = []
        for color in (Color.WHITE, Color.BLACK):
            c = event.counter(color)
            blocked_on = c.square if c is not None and c.blocked else None
            if blocked_on is not None and blocked_on != self._blocked[color]:
                out.append(self._t["blocked"].format(side=self.side(color), square=blocked_on))
            self._blocked[color] = blocked_on
        if event.seven_move is not None and event.seven_move != self._seven and event.seven_move_side is not None:
            side, left = self.side(event.seven_move_side), event.seven_move_left
            if event.seven_move == 0:
                out.append(self._t["seven_start"].format(side=side))
            elif left == 1:
                out.append(self._t["seven_left_one"].format(side=side))
            elif left is not None and left > 1:
                out.append(self._t["seven_left"].format(side=side, left=left))
        self._seven = event.seven_move
        return out

    def _legal(self, legal: Iterable[str]) -> list[str]:
        moves = [self.move(m) for m in legal][:MAX_LEGAL_SAID]
        return [self._t["legal"].format(moves=self._t["or"].join(moves))] if moves else []

    def side(self, color: Color) -> str:
        return self._t["white" if color is Color.WHITE else "black"]

    def move(self, text: str) -> str:
        """``32-28`` -> ``32 to 28``; ``28x19x10`` -> ``28 takes 19 takes 10`` (in the language)."""
        return text.replace("-", self._t["to"]).replace("x", self._t["takes"]).replace("X", self._t["takes"])

    def article(self, article: str) -> str:
        m = re.match(r"Art\.\s*(\S+)", article)
        return self._t["article"].format(number=m.group(1)) if m else article


# --------------------------------------------------------------------------- backends


@dataclass(frozen=True, slots=True)
class Spoken:
    """A sentence said: ``wav`` is the file it was written to (None when only played or silent),
    ``seconds`` its length (0 when silent)."""

    text: str
    wav: str | None = None
    seconds: float = 0.0


class SpeechBackend(Protocol):
    name: str

    def speak(self, text: str) -> Spoken: ...

    def close(self) -> None: ...


class SilentBackend:
    """Says nothing; tells why once in the log."""

    def __init__(self, reason: str) -> None:
        self.name = "silent"
        self.reason = reason
        log.warning("speech is off: %s", reason)

    def speak(self, text: str) -> Spoken:
        return Spoken(text)

    def close(self) -> None:
        pass


class EspeakBackend:
    """pyttsx3 on espeak-ng in a worker process (`device.speech_worker`).

    With ``wav_dir``, each sentence is written to ``wav_dir/NNNN.wav`` and listed in
    ``wav_dir/spoken.tsv`` (``NNNN.wav<TAB>seconds<TAB>text``); with ``play``, it is played
    through ``aplay``.  A sentence may take ``timeout + per_char * len(text)`` seconds; past that
    the worker is killed (with its player) and a new one is started for the next sentence.
    """

    def __init__(self, language: str = "en", rate: int = 160, voice: str = "", *, wav_dir: str | Path | None = None,
                 play: bool = True, timeout: float = 15.0, per_char: float = 0.15,
                 python: str = sys.executable) -> None:
        self.name = "espeak-ng" + (f" (WAV files in {wav_dir})" if wav_dir else "")
        self.language = language
        self.fallback = VOICES.get(language, "gmw/en")
        self.voice = voice or self.fallback
        self.rate = rate
        self.wav_dir = Path(wav_dir) if wav_dir is not None else None
        self.play = play
        self.timeout = timeout
        self.per_char = per_char
        self.python = python
        self._proc: subprocess.Popen[bytes] | None = None
        self._buffer = b""
        self._count = 0
        self._warned: set[str] = set()
        if self.wav_dir is not None:
            self.wav_dir.mkdir(parents=True, exist_ok=True)
            self._count = len(list(self.wav_dir.glob("[0-9][0-9][0-9][0-9].wav")))

    # -- the worker

    def start(self) -> None:
        """Start the worker (done by the first ``speak``).  Raises SpeechError when espeak-ng
        cannot be used at all."""
        if self._proc is not None and self._proc.poll() is None:
            return
        self._buffer = b""
        env = dict(os.environ)
        root = str(Path(__file__).resolve().parents[1])
        env["PYTHONPATH"] = root + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
        try:
            self._proc = subprocess.Popen(
                [self.python, "-m", "device.speech_worker", "--voice", self.voice, "--fallback", self.fallback,
                 "--rate", str(self.rate)],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, start_new_session=True, env=env)
        except OSError as e:
            raise SpeechError(f"cannot start the speech worker: {e.strerror}") from None
        hello = self._reply(self.timeout)
        if "error" in hello or not hello.get("ready"):
            self._kill()
            raise SpeechError(f"no speech engine (pyttsx3 on espeak-ng): {hello.get('error', hello)}: "
                              "install espeak-ng (apt install espeak-ng)")
        if hello.get("warning"):
            self._warn_once(f"speech.voice: {hello['warning']}")
        log.debug("speech worker %d ready, voice %s", self._proc.pid if self._proc else -1, hello.get("voice"))

    def _reply(self, timeout: float) -> dict[str, Any]:
        proc = self._proc
        assert proc is not None and proc.stdout is not None
        fd = proc.stdout.fileno()
        end = time.monotonic() + timeout
        while b"\n" not in self._buffer:
            left = end - time.monotonic()
            if left <= 0:
                self._kill()
                raise SpeechError(f"the speech engine did not answer in {timeout:.0f} s: restarting it")
            ready, _, _ = select.select([fd], [], [], left)
            if ready:
                chunk = os.read(fd, 65536)
                if not chunk:
                    try:
                        code = proc.wait(timeout=2)
                    except subprocess.TimeoutExpired:
                        code = None
                    self._kill()
                    raise SpeechError(f"the speech worker stopped (exit status {code}): restarting it")
                self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        try:
            return json.loads(line)
        except ValueError:
            self._kill()
            raise SpeechError(f"the speech worker said something unreadable: {line[:80]!r}") from None

    def _kill(self) -> None:
        proc, self._proc = self._proc, None
        if proc is None:
            return
        if proc.poll() is None:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                proc.kill()
        proc.wait()
        for stream in (proc.stdin, proc.stdout):
            if stream is not None:
                try:
                    stream.close()
                except OSError:
                    pass

    def _warn_once(self, message: str) -> None:
        if message not in self._warned:
            self._warned.add(message)
            log.warning("%s", message)

    # -- the interface

    def speak(self, text: str) -> Spoken:
        text = " ".join(text.split())
        if not text:
            return Spoken(text)
        self.start()
        wav = None
        if self.wav_dir is not None:
            self._count += 1
            wav = str(self.wav_dir / f"{self._count:04d}.wav")
        request = json.dumps({"text": text, "wav": wav, "play": self.play}) + "\n"
        assert self._proc is not None and self._proc.stdin is not None
        try:
            self._proc.stdin.write(request.encode("utf-8"))
            self._proc.stdin.flush()
        except OSError:
            self._kill()
            raise SpeechError("the speech worker stopped: restarting it") from None
        answer = self._reply(self.timeout + self.per_char * len(text))
        if not answer.get("ok"):
            raise SpeechError(f"espeak-ng could not say {text!r}: {answer.get('error')}")
        if answer.get("warning"):
            self._warn_once(answer["warning"])
        seconds = float(answer.get("seconds") or 0.0)
        if wav is not None and self.wav_dir is not None:
            with open(self.wav_dir / "spoken.tsv", "a", encoding="utf-8") as index:
                index.write(f"{Path(wav).name}\t{seconds:.3f}\t{text}\n")
        return Spoken(text, wav, seconds)

    def close(self) -> None:
        proc = self._proc
        if proc is None:
            return
        try:
            if proc.stdin is not None:
                proc.stdin.close()
            proc.wait(timeout=2)
        except (OSError, subprocess.TimeoutExpired):
            pass
        self._kill()


# --------------------------------------------------------------------------- the speaker


class Speaker:
    """Says sentences from a queue on its own thread; ``say()`` never waits.

    When the queue is full (the box is far behind), the oldest sentence waiting is dropped.
    ``max_failures`` failures of the backend in a row switch it to silence (said once).
    """

    def __init__(self, backend: SpeechBackend, *, max_queue: int = 20, max_failures: int = 3,
                 history: int = 200) -> None:
        self.backend: SpeechBackend = backend
        self.max_failures = max_failures
        self.history: deque[Spoken] = deque(maxlen=history)
        self._queue: deque[str] = deque()
        self._max_queue = max_queue
        self._cond = threading.Condition()
        self._busy = False
        self._closed = False
        self._failures = 0
        self._thread = threading.Thread(target=self._run, name="speaker", daemon=True)
        self._thread.start()

    @property
    def name(self) -> str:
        return self.backend.name

    def say(self, text: str) -> None:
        """Queue ``text`` to be said; returns at once."""
        if not text.strip():
            return
        with self._cond:
            if self._closed:
                return
            if len(self._queue) >= self._max_queue:
                dropped = self._queue.popleft()
                log.warning("speech is behind: not saying %r", dropped)
            self._queue.append(text)
            self._cond.notify_all()

    def wait_idle(self, timeout: float | None = None) -> bool:
        """Wait until everything queued has been said (or ``timeout`` passed): True when idle."""
        end = None if timeout is None else time.monotonic() + timeout
        with self._cond:
            while self._queue or self._busy:
                left = None if end is None else end - time.monotonic()
                if left is not None and left <= 0:
                    return False
                self._cond.wait(left)
            return True

    def _run(self) -> None:
        while True:
            with self._cond:
                while not self._queue and not self._closed:
                    self._cond.wait()
                if not self._queue:
                    return
                text = self._queue.popleft()
                self._busy = True
            try:
                self._speak(text)
            finally:
                with self._cond:
                    self._busy = False
                    self._cond.notify_all()

    def _speak(self, text: str) -> None:
        try:
            spoken = self.backend.speak(text)
        except SpeechError as e:
            self._failures += 1
            log.warning("speech failed (%d in a row): %s", self._failures, e)
            if self._failures >= self.max_failures:
                old = self.backend
                self.backend = SilentBackend(f"the speech engine failed {self._failures} times in a row ({e})")
                try:
                    old.close()
                except Exception:
                    log.exception("closing the failed speech backend")
            return
        except Exception:
            self._failures += 1
            log.exception("speech failed on %r", text)
            return
        self._failures = 0
        self.history.append(spoken)
        if self.backend.name != "silent":
            log.info("said: %s", spoken.text)

    def close(self, timeout: float = 10.0) -> None:
        """Say what is queued (up to ``timeout`` seconds), then stop the thread and the backend."""
        self.wait_idle(timeout)
        with self._cond:
            self._closed = True
            self._queue.clear()
            self._cond.notify_all()
        self._thread.join(timeout)
        self.backend.close()

    def __enter__(self) -> "Speaker":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def open_speech(config: SpeechConfig, wav_dir: str | Path | None = None, play: bool | None = None,
                silenced_by: str | None = None) -> Speaker:
    """The speaker the configuration asks for: espeak-ng through pyttsx3 (playing, or writing WAVs
    into ``wav_dir``), or silence when speech is off or no engine works (said once in the log).
    ``silenced_by`` names what turned speech off when it was not the configuration (the command
    line's ``--no-speech``), so that the log names that."""
    if silenced_by is not None:
        return Speaker(SilentBackend(silenced_by))
    if not config.enabled:
        return Speaker(SilentBackend("speech.enabled = false in the configuration"))
    backend = EspeakBackend(config.language, config.rate, config.voice, wav_dir=wav_dir,
                            play=(wav_dir is None) if play is None else play)
    try:
        backend.start()
    except SpeechError as e:
        backend.close()
        return Speaker(SilentBackend(str(e)))
    return Speaker(backend)

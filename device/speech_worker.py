"""The speech worker: one process that owns pyttsx3 and espeak-ng, driven over pipes.

`device.speech.EspeakBackend` starts ``python -m device.speech_worker --voice V --rate R`` and
talks to it in JSON lines.  espeak-ng's state is process-wide (pyttsx3's espeak driver
initialises it once per process and keeps one global callback), and ``runAndWait`` has a history
of hangs: in a process of its own, a hang is ended by killing the process and starting a new one,
and nothing of it stays behind in the service.

Protocol (one JSON object per line):

- the worker first writes ``{"ready": true, "voice": ID}`` (with ``"warning"`` when the asked
  voice does not exist and the language's voice is used instead), or ``{"error": TEXT}`` and exits;
- then for each request ``{"text": T, "wav": PATH or null, "play": BOOL}`` it writes T as a WAV
  (to PATH, or a temporary file), plays it with ``aplay`` when ``play``, and answers
  ``{"ok": true, "wav": PATH, "seconds": S}`` or ``{"ok": false, "error": TEXT}``.

What pyttsx3 2.99's espeak driver does that the worker works around:

- it runs espeak-ng in its asynchronous mode (AUDIO_OUTPUT_RETRIEVAL): the synthesis callback,
  which writes the WAV (or plays it), runs on espeak-ng's own thread, and ``runAndWait`` returns
  about 10 ms after queueing the sentence, whether or not it is finished (the engine's endLoop
  command is pumped together with the sentence, before synthesis starts).  On a busy or slow
  machine the WAV is then missing, empty or half written, and the next sentence's settings and
  buffer reset race the one still being made.  The worker waits for the driver's
  ``finished-utterance`` notification, sent after the WAV is closed, before it answers.
- property changes (voice, rate) are queued until the next ``runAndWait``; an unknown voice is
  ignored without an error, so the worker checks the name against the voice list itself.
- a rate set through the engine is lost now and then (the sentence comes out at pyttsx3's default
  200 words per minute): ``runAndWait`` pumps the queued ``SetParameter`` into espeak-ng's
  command queue and then, in the same pump, its endLoop calls ``stop()``, which cancels
  everything espeak-ng has not yet taken from its queue when ``IsPlaying()`` says it is busy.
  Whether the rate survives depends on which thread runs first (lost more often under load, or
  when the first sentence comes a while after start-up).  The worker sets the rate itself
  before each sentence and waits until espeak-ng's queue is idle, so nothing is left to cancel.
- it prints "Audio saved to ..." on standard output: the worker moves standard output to
  /dev/null and answers on a duplicate of the original descriptor.
- ``save_to_file`` asserts on an empty text, and ``runAndWait`` with nothing queued loops
  forever: the worker never asks for an empty sentence.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import wave
from typing import Any, TextIO

from device.library_pages import release_library_pages


def _answer(out: TextIO, message: dict[str, Any]) -> None:
    out.write(json.dumps(message) + "\n")
    out.flush()


def _voice_ids(engine: Any) -> set[str]:
    ids: set[str] = set()
    for v in engine.getProperty("voices"):
        ids.add(v.id)
        ids.add(v.id.rsplit("/", 1)[-1])
        ids.update(v.languages or ())
    return ids


def _frames(path: str) -> int:
    try:
        with wave.open(path, "rb") as w:
            return w.getnframes()
    except (OSError, EOFError, wave.Error):
        return 0


def _set_rate(rate: int, timeout: float = 2.0) -> None:
    """Set espeak-ng's rate now and wait until its queue has taken it (see the module's
    docstring: a rate still queued when ``runAndWait`` ends its loop is cancelled)."""
    from pyttsx3.drivers import _espeak

    _espeak.SetParameter(_espeak.RATE, rate, 0)
    end = time.monotonic() + timeout
    while _espeak.IsPlaying() and time.monotonic() < end:
        time.sleep(0.002)


def _synthesise(engine: Any, finished: threading.Event, rate: int, text: str, path: str,
                timeout: float) -> int:
    """Write ``text`` to ``path`` and wait until espeak-ng's thread has closed the file (see the
    module's docstring); an empty WAV is tried once more."""
    frames = 0
    for _ in range(2):
        finished.clear()
        _set_rate(rate)
        engine.save_to_file(text, path)
        engine.runAndWait()
        if not finished.wait(timeout):
            raise TimeoutError(f"espeak-ng did not finish the sentence in {timeout:.0f} s")
        frames = _frames(path)
        if frames:
            break
    return frames


def serve(voice: str, fallback: str, rate: int, requests: TextIO, out: TextIO) -> int:
    try:
        import pyttsx3
        engine = pyttsx3.init("espeak")
        known = _voice_ids(engine)
        finished = threading.Event()
        engine.connect("finished-utterance", lambda **_: finished.set())
    except Exception as e:  # no pyttsx3, no libespeak-ng, or espeak fails to start
        _answer(out, {"error": f"{type(e).__name__}: {e}"})
        return 3
    hello: dict[str, Any] = {"ready": True}
    if voice.split("+", 1)[0] not in known:
        hello["warning"] = f"espeak-ng has no voice {voice!r}: using {fallback!r} (see espeak-ng --voices)"
        voice = fallback
    hello["voice"] = voice
    # SetVoiceByName is synchronous in espeak-ng; one short sentence now proves it speaks.
    engine.setProperty("voice", voice)
    fd, warm = tempfile.mkstemp(prefix="frisian-speech-", suffix=".wav")
    os.close(fd)
    try:
        _synthesise(engine, finished, rate, "ok", warm, 10.0)
    except Exception as e:
        _answer(out, {"error": f"espeak-ng does not speak: {type(e).__name__}: {e}"})
        return 3
    finally:
        os.unlink(warm)
    # what starting touched of Python's, pyttsx3's and espeak-ng's files is not run again
    release_library_pages()
    _answer(out, hello)
    player = shutil.which("aplay")
    for line in requests:
        if not line.strip():
            continue
        temp = None
        try:
            request = json.loads(line)
            text = str(request["text"]).strip()
            if not text:
                raise ValueError("nothing to say")
            path = request.get("wav")
            if not path:
                fd, temp = tempfile.mkstemp(prefix="frisian-speech-", suffix=".wav")
                os.close(fd)
                path = temp
            frames = _synthesise(engine, finished, rate, text, path, 10.0 + 0.1 * len(text))
            if not frames:
                raise RuntimeError("espeak-ng produced no sound")
            answer: dict[str, Any] = {"ok": True, "wav": None if temp else path, "seconds": frames / 22050}
            if request.get("play"):
                if player is None:
                    answer["warning"] = "aplay is not installed: install alsa-utils to hear speech"
                else:
                    done = subprocess.run([player, "-q", path], stdin=subprocess.DEVNULL,
                                          capture_output=True, text=True)
                    if done.returncode != 0:
                        answer["warning"] = f"aplay failed: {(done.stderr or '').strip().splitlines()[-1:]}"
            _answer(out, answer)
        except Exception as e:
            _answer(out, {"ok": False, "error": f"{type(e).__name__}: {e}"})
        finally:
            if temp:
                try:
                    os.unlink(temp)
                except OSError:
                    pass
    return 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m device.speech_worker")
    p.add_argument("--voice", required=True)
    p.add_argument("--fallback", required=True)
    p.add_argument("--rate", type=int, default=160)
    args = p.parse_args(argv)
    out = os.fdopen(os.dup(1), "w", encoding="utf-8")
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.close(devnull)
    return serve(args.voice, args.fallback, args.rate, sys.stdin, out)


if __name__ == "__main__":
    sys.exit(main())

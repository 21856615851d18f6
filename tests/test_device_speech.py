"""Speech: the phrase tables, the announcer's sentences, and real espeak-ng WAVs through pyttsx3.

The WAV tests hear what was said: each WAV written by pyttsx3 (in the worker process) is
compared with espeak-ng's own rendering of the expected sentence with the same voice and rate.
espeak-ng keeps some state between sentences (the worker says a short one when it starts), so the
lengths agree within a few per cent, not to the sample; a WAV must also be clearly unlike the
renderings of sentences of a clearly different length.  Sentences at the wrong rate (pyttsx3's
default 200 instead of the configured one, a bug the worker works around) are 20 % shorter.
"""

from __future__ import annotations

import logging
import shutil
import subprocess
import sys
import time
import wave
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from device.config import SpeechConfig
from device.errors import SpeechError
from device.phrases import PHRASES, VOICES
from device.speech import Announcer, EspeakBackend, Speaker, Spoken, open_speech
from rules.events import (CountersChanged, CrownPending, DrawPossible, GameOver, Irregularity, IrregularityKind,
                          IrregularityResolved, IrregularityStands, LookAgain, LostTrack, MovePlayed,
                          MoveTakenBack, ScoresheetComment, TouchMove)
from rules.outcome import Termination
from rules.piece import Color, KingCounter

W, B = Color.WHITE, Color.BLACK
needs_espeak = pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed")


def frames(path: str | Path) -> int:
    with wave.open(str(path), "rb") as w:
        assert (w.getnchannels(), w.getsampwidth(), w.getframerate()) == (1, 2, 22050)
        return w.getnframes()


def reference_frames(tmp_path: Path, text: str, voice: str, rate: int) -> int:
    out = tmp_path / f"ref-{abs(hash((text, voice, rate)))}.wav"
    subprocess.run(["espeak-ng", "-v", voice, "-s", str(rate), "-w", str(out), text], check=True)
    return frames(out)


# ---------------------------------------------------------------- the tables


def test_both_languages_have_the_same_phrases_and_they_format():
    assert set(PHRASES["en"]) == set(PHRASES["nl"])
    for lang, table in PHRASES.items():
        for kind in IrregularityKind:
            assert f"summary.{kind.name}" in table and f"remedy.{kind.name}" in table, (lang, kind)
        for term in Termination:
            assert f"termination.{term.value}" in table, (lang, term)
    with pytest.raises(TypeError):
        PHRASES["en"]["white"] = "x"  # read-only
    assert set(VOICES) == set(PHRASES)


# ---------------------------------------------------------------- sentences

def irregular(kind, **kw) -> Irregularity:
    base = dict(ply=7, time=None, kind=kind, color=W, message="m", remedy="r")
    return Irregularity(**{**base, **kw})


def test_crown_in_both_languages():
    event = CrownPending(ply=9, time=None, color=W, square=3)
    assert Announcer("en").sentences(event) == ["White: crown the man on 3."]
    assert Announcer("nl").sentences(event) == ["Wit: kroon de schijf op 3."]


def test_irregularity_with_article_remedy_and_legal_moves():
    event = irregular(IrregularityKind.CAPTURE_NOT_TAKEN, played="32-28", legal=("33x24", "34x23"))
    assert Announcer("en").sentences(event) == [
        "White, irregular move, article 10: capturing is compulsory.",
        "Take the move back and capture.",
        "Legal: 33 takes 24 or 34 takes 23."]
    assert Announcer("nl").sentences(event) == [
        "Wit, onregelmatige zet, artikel 10: slaan is verplicht.",
        "Neem de zet terug en sla.",
        "Toegestaan: 33 slaat 24 of 34 slaat 23."]
    not_crowned = irregular(IrregularityKind.NOT_CROWNED, color=B, square=48)
    assert Announcer("nl").sentences(not_crowned) == [
        "Zwart, onregelmatige zet, artikel 8: de schijf is niet gekroond.", "Kroon de schijf op 48."]
    many = irregular(IrregularityKind.WRONG_PIECES_TAKEN, legal=tuple(f"{n}-{n - 5}" for n in range(31, 38)))
    assert Announcer("en").sentences(many)[-1].count(" or ") == 3


def test_lost_track_says_where_the_record_stops_and_names_no_article():
    event = LostTrack(ply=10, time=None, message="m", remedy="r", since="16x27")
    assert Announcer("en").sentences(event) == [
        "I have lost track of the game: moves were played that I did not see. "
        "The record stops after 16 takes 27.",
        "Put the pieces back as they stood then to go on recording, or write the moves down by hand."]
    said = Announcer("nl").sentences(event)
    assert said[0].endswith("De notatie stopt na 16 slaat 27.") and "artikel" not in " ".join(said)
    assert Announcer("nl").sentences(replace(event, since=None))[0].endswith("Er is nog niets genoteerd.")


def test_every_irregularity_kind_is_said_in_both_languages():
    for lang in PHRASES:
        for kind in IrregularityKind:
            said = Announcer(lang).sentences(irregular(kind, square=12, played="17-12"))
            assert len(said) == 2 and all(s.strip() for s in said) and "{" not in "".join(said)


def test_touch_move_resolution_stands_draws_results_take_back():
    en, nl = Announcer("en"), Announcer("nl")
    touch = TouchMove(ply=4, time=None, color=B, square=19, moved=18, rule="manual rule I", message="m",
                      remedy="r", legal=("19-23", "19-24"))
    assert en.sentences(touch) == [
        "Black, touch-move, article 15: the piece on 19 was touched first and must be played.",
        "Legal: 19 to 23 or 19 to 24."]
    assert en.sentences(IrregularityResolved(ply=4, time=None, kind=IrregularityKind.UNKNOWN, how="taken back")) == ["Put right."]
    stands = IrregularityStands(ply=5, time=None, kind=IrregularityKind.CAPTURE_NOT_TAKEN, played="32-28")
    assert nl.sentences(stands) == ["De onregelmatige zet 32 naar 28 blijft staan: de tegenstander heeft geantwoord."]
    assert nl.sentences(DrawPossible(ply=60, time=None, reason="two kings against one")) == ["Remise mag worden overeengekomen."]
    win = GameOver(ply=80, time=None, result="1-0", reason="no legal move", article="Art. 20f", winner=W)
    assert en.sentences(win) == ["Game over. White wins: no move left."]
    draw = GameOver(ply=80, time=None, result="1/2-1/2", reason="seven-move rule", article="Art. 18", winner=None)
    assert nl.sentences(draw) == ["Einde partij. Remise: de zevenzettenregel."]
    assert en.sentences(MoveTakenBack(ply=3, time=None, text="28x19", fen="")) == ["Move 28 takes 19 taken back."]
    assert en.sentences(LookAgain(ply=3, time=None, reason="hand")) == []
    assert en.sentences(ScoresheetComment(ply=3, time=None, text="x")) == []


def test_moves_only_when_asked():
    move = MovePlayed(ply=1, time=None, color=W, number=1, text="32-28", fen="")
    assert Announcer("en").sentences(move) == []
    assert Announcer("en", announce_moves=True).sentences(move) == ["White: 32 to 28."]
    assert Announcer("nl", announce_moves=True).sentences(move) == ["Wit: 32 naar 28."]


def test_blocked_king_and_seven_move_countdown_said_once_per_change():
    a = Announcer("en")

    def c(white=None, black=None, seven=None, side=None):
        return CountersChanged(ply=1, time=None, white=white, black=black, seven_move=seven, seven_move_side=side)

    assert a.sentences(c(white=KingCounter(28, 2))) == []
    assert a.sentences(c(white=KingCounter(23, 3))) == ["White's king on 23 has made three moves: it may only capture."]
    assert a.sentences(c(white=KingCounter(23, 3))) == []
    assert a.sentences(c(seven=0, side=B)) == ["Seven-move rule: Black has seven moves to win."]
    assert a.sentences(c(seven=0, side=B)) == []
    assert a.sentences(c(seven=1, side=B)) == ["Black: 6 moves left."]
    assert a.sentences(c(seven=6, side=B)) == ["Black: one move left."]
    assert Announcer("nl").sentences(c(black=KingCounter(5, 3))) == [
        "De dam van Zwart op 5 heeft drie zetten gedaan: hij mag alleen nog slaan."]
    a.reset()
    assert a.sentences(c(white=KingCounter(23, 3))) != []


def test_unknown_language():
    with pytest.raises(ValueError, match="use en, nl"):
        Announcer("fy")


# ---------------------------------------------------------------- the speaker's thread


class SlowBackend:
    name = "slow"

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.said: list[str] = []

    def speak(self, text: str) -> Spoken:
        time.sleep(self.seconds)
        self.said.append(text)
        return Spoken(text, None, self.seconds)

    def close(self) -> None:
        pass


def test_say_never_waits_and_keeps_order():
    backend = SlowBackend(0.2)
    with Speaker(backend) as speaker:
        start = time.monotonic()
        for i in range(3):
            speaker.say(f"sentence {i}")
        queued_in = time.monotonic() - start
        assert speaker.wait_idle(10)
    assert backend.said == ["sentence 0", "sentence 1", "sentence 2"]
    assert queued_in < 0.2 * 3  # behaviour, not a benchmark: say() did not speak


def test_full_queue_drops_the_oldest(caplog):
    backend = SlowBackend(0.3)
    with Speaker(backend, max_queue=2) as speaker:
        for i in range(5):
            speaker.say(f"s{i}")
        assert speaker.wait_idle(10)
    assert backend.said[-2:] == ["s3", "s4"] and len(backend.said) < 5
    assert "speech is behind" in caplog.text


# ---------------------------------------------------------------- real espeak-ng WAVs


def samples(path: str | Path) -> np.ndarray:
    with wave.open(str(path), "rb") as w:
        return np.frombuffer(w.readframes(w.getnframes()), dtype=np.int16).astype(float)


def envelope(x: np.ndarray, points: int = 200) -> np.ndarray:
    """The loudness over time (log RMS per 10 ms), stretched to ``points`` values."""
    hop = 220
    k = len(x) // hop
    e = np.log(np.sqrt((x[: k * hop].reshape(k, hop) ** 2).mean(axis=1) + 1.0))
    return np.interp(np.linspace(0, k - 1, points), np.arange(k), e)


def likeness(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.corrcoef(envelope(a), envelope(b))[0, 1])


def heard(tmp_path: Path, wav: str, candidates: dict[tuple[str, str], np.ndarray]) -> tuple[tuple[str, str], float, float]:
    """Which (sentence, voice) rendering the WAV is most like, how much, and the next best."""
    x = samples(wav)
    scores = sorted(((likeness(x, ref), key) for key, ref in candidates.items()), reverse=True)
    return scores[0][1], scores[0][0], scores[1][0]


def renderings(tmp_path: Path, sentences: list[str], rate: int) -> dict[tuple[str, str], np.ndarray]:
    out = {}
    for voice in VOICES.values():
        for s in sentences:
            path = tmp_path / f"ref-{len(out)}.wav"
            subprocess.run(["espeak-ng", "-v", voice, "-s", str(rate), "-w", str(path), s], check=True)
            out[(s, voice)] = samples(path)
    return out


@needs_espeak
@pytest.mark.parametrize("language", ["en", "nl"])
def test_wav_backend_says_the_sentences(tmp_path, language, caplog):
    caplog.set_level(logging.INFO, logger="device.speech")
    config = SpeechConfig(language=language, rate=170)
    crown = CrownPending(ply=9, time=None, color=W, square=3)
    capture = irregular(IrregularityKind.CAPTURE_NOT_TAKEN, legal=("33x24",))
    announcer = Announcer(language)
    sentences = announcer.sentences(crown) + announcer.sentences(capture)
    with open_speech(config, wav_dir=tmp_path / "wav") as speaker:
        assert speaker.name.startswith("espeak-ng")
        announcer.speaker = speaker
        announcer.on_event(crown)
        announcer.on_event(capture)
        assert speaker.wait_idle(60)
        history = list(speaker.history)
    assert [h.text for h in history] == sentences
    index = (tmp_path / "wav" / "spoken.tsv").read_text(encoding="utf-8").splitlines()
    assert [line.split("\t")[2] for line in index] == sentences
    assert sum(1 for r in caplog.records if r.getMessage().startswith("said: ")) == len(sentences)
    # hear them: each WAV is most like espeak-ng's own rendering of its sentence in its voice,
    # among the same sentences in both languages and both voices
    both = Announcer("en").sentences(crown) + Announcer("nl").sentences(crown) + sentences
    candidates = renderings(tmp_path, list(dict.fromkeys(both)), 170)
    for h in history:
        assert h.wav is not None and Path(h.wav).exists()
        n = frames(h.wav)
        assert 0.3 < n / 22050 < 20 and abs(n / 22050 - h.seconds) < 0.01
        best, score, runner_up = heard(tmp_path, h.wav, candidates)
        assert best == (h.text, VOICES[language]), (h.text, best)
        assert score > 0.8 and score - runner_up > 0.08
        assert n == pytest.approx(len(candidates[best]), rel=0.04)


@needs_espeak
def test_dutch_and_english_voices_differ(tmp_path):
    text = "Wit: kroon de schijf op 3."
    wavs = {}
    for lang in ("en", "nl"):
        backend = EspeakBackend(lang, 160, wav_dir=tmp_path / lang, play=False)
        try:
            wavs[lang] = backend.speak(text).wav
        finally:
            backend.close()
    candidates = renderings(tmp_path, [text], 160)
    for lang, wav in wavs.items():
        best, score, _ = heard(tmp_path, wav, candidates)
        assert best == (text, VOICES[lang]) and score > 0.9
        assert frames(wav) == pytest.approx(len(candidates[best]), rel=0.04)


@needs_espeak
def test_rate_is_kept_when_the_first_sentence_comes_late(tmp_path):
    # pyttsx3 + espeak-ng lost the rate when the first sentence came a while after the settings
    backend = EspeakBackend("nl", 160, wav_dir=tmp_path, play=False)
    try:
        backend.start()
        time.sleep(0.3)
        spoken = backend.speak("Kroon de schijf op 3.")
        later = backend.speak("Kroon de schijf op 3.")
    finally:
        backend.close()
    ref = reference_frames(tmp_path, "Kroon de schijf op 3.", "gmw/nl", 160)
    assert frames(spoken.wav) == pytest.approx(ref, rel=0.04)
    assert frames(later.wav) == pytest.approx(ref, rel=0.04)


@needs_espeak
def test_unknown_voice_falls_back_to_the_language_voice(tmp_path, caplog):
    backend = EspeakBackend("nl", 160, voice="no-such-voice", wav_dir=tmp_path, play=False)
    try:
        spoken = backend.speak("Kroon de schijf op 3.")
    finally:
        backend.close()
    assert "espeak-ng has no voice 'no-such-voice': using 'gmw/nl'" in caplog.text
    assert frames(spoken.wav) == pytest.approx(reference_frames(tmp_path, "Kroon de schijf op 3.", "gmw/nl", 160), rel=0.04)


def test_playing_without_a_player_or_sound_card_does_not_fail(tmp_path, caplog):
    # play=True with no wav_dir: the worker plays through aplay if it exists; without a sound
    # card (CI) aplay fails, without alsa-utils it is missing: either way a warning, once.
    backend = EspeakBackend("en", 200, play=True)
    try:
        for _ in range(2):
            spoken = backend.speak("Draw.")
            assert spoken.wav is None and spoken.seconds > 0.1
    finally:
        backend.close()
    assert sum("aplay" in r.getMessage() for r in caplog.records) <= 1


# ---------------------------------------------------------------- no engine, hangs, crashes


def test_no_speech_engine_gives_silence_said_once(tmp_path, monkeypatch, caplog):
    fake = tmp_path / "fake"
    fake.mkdir()
    (fake / "pyttsx3.py").write_text("raise ImportError('no pyttsx3 here')\n")
    monkeypatch.setenv("PYTHONPATH", str(fake))
    with open_speech(SpeechConfig(language="en")) as speaker:
        assert speaker.name == "silent"
        speaker.say("Game over.")
        assert speaker.wait_idle(5)
        assert [h.text for h in speaker.history] == ["Game over."]
    warnings = [r.getMessage() for r in caplog.records if "speech is off" in r.getMessage()]
    assert len(warnings) == 1 and "install espeak-ng" in warnings[0]


def test_speech_off_in_config(caplog):
    with open_speech(SpeechConfig(enabled=False)) as speaker:
        assert speaker.name == "silent"
    assert "speech.enabled = false" in caplog.text


FAKE_WORKER = r'''
import json, sys, time, os
mode = os.environ["FAKE_SPEECH"]
print(json.dumps({"ready": True, "voice": "fake"}), flush=True)
for line in sys.stdin:
    text = json.loads(line)["text"]
    if "hang" in text:
        time.sleep(3600)
    if mode == "crash":
        sys.exit(7)
    print(json.dumps({"ok": True, "wav": None, "seconds": 1.0}), flush=True)
'''


def fake_python(tmp_path: Path) -> str:
    """An executable standing in for `python -m device.speech_worker`."""
    script = tmp_path / "worker.py"
    script.write_text(FAKE_WORKER)
    exe = tmp_path / "python"
    exe.write_text(f"#!/bin/sh\nexec {sys.executable} {script}\n")
    exe.chmod(0o755)
    return str(exe)


def test_hung_engine_is_killed_and_restarted(tmp_path, monkeypatch, caplog):
    monkeypatch.setenv("FAKE_SPEECH", "ok")
    backend = EspeakBackend("en", python=fake_python(tmp_path), timeout=1.0, per_char=0.0, play=False)
    with Speaker(backend) as speaker:
        speaker.say("one")
        speaker.say("please hang now")
        speaker.say("two")
        assert speaker.wait_idle(20)
        assert [h.text for h in speaker.history] == ["one", "two"]
        assert speaker.name.startswith("espeak-ng")
    assert "did not answer in 1 s: restarting it" in caplog.text


def test_engine_that_keeps_failing_goes_silent_once(tmp_path, monkeypatch, caplog):
    monkeypatch.setenv("FAKE_SPEECH", "crash")
    backend = EspeakBackend("en", python=fake_python(tmp_path), timeout=5.0, play=False)
    with Speaker(backend, max_failures=2) as speaker:
        for i in range(4):
            speaker.say(f"s{i}")
        assert speaker.wait_idle(20)
        assert speaker.name == "silent"
        assert [h.text for h in speaker.history] == ["s2", "s3"]
    assert "the speech worker stopped (exit status 7)" in caplog.text
    assert sum("speech is off" in r.getMessage() for r in caplog.records) == 1


def test_start_failure_is_one_line(tmp_path):
    backend = EspeakBackend("en", python=str(tmp_path / "missing-python"))
    with pytest.raises(SpeechError, match="cannot start the speech worker"):
        backend.speak("x")

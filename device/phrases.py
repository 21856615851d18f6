"""What the box says: one table of sentences per language (English ``en``, Dutch ``nl``).

espeak-ng has no Frisian voice; Dutch is the players' language in Friesland.  Every table has
the same keys (a test checks it); the values are `str.format` templates whose fields are filled by
`device.speech.Announcer`.  Keys:

- ``white``/``black``: the sides' names;
- ``move``: a move as said (``{side}: {move}``), with ``to``/``takes`` joining the squares;
- ``irregular``: an irregularity (``{side}``, ``{article}``, ``{summary}``), then the remedy, one
  per `rules.events.IrregularityKind` name under ``remedy.NAME`` (fields ``{square}``,
  ``{played}``), then ``legal`` listing the legal moves (``{moves}``, joined with ``or``);
- ``summary.NAME``: what was wrong, per `IrregularityKind` name;
- ``resolved``, ``stands``, ``touch_move`` (``touch_move_open``: the same on the club's screen
  while it is open, no side or square), ``crown``, ``blocked``, ``seven_start``,
  ``seven_left``, ``seven_left_one``, ``draw_possible``, ``taken_back``, ``win``, ``draw``;
- ``termination.*``: the reasons a game ends (`rules.outcome.Termination` values).
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Mapping

_EN: dict[str, str] = {
    "white": "White",
    "black": "Black",
    "article": "article {number}",
    "to": " to ",
    "takes": " takes ",
    "or": " or ",
    "move": "{side}: {move}.",
    "irregular": "{side}, irregular move, {article}: {summary}.",
    "legal": "Legal: {moves}.",
    "summary.CAPTURE_NOT_TAKEN": "capturing is compulsory",
    "summary.NOT_HIGHEST_VALUE": "the capture must take the highest value",
    "summary.KING_MUST_CAPTURE": "at equal value the king must capture",
    "summary.FOURTH_KING_MOVE": "a king may not make a fourth move in a row",
    "summary.OPPONENT_PIECE": "a piece of the opponent was moved",
    "summary.WRONG_PIECES_TAKEN": "too many or too few pieces were taken off",
    "summary.UNREACHABLE": "a piece stands where no move can bring it",
    "summary.NOT_CROWNED": "the man was not crowned",
    "summary.WRONGLY_CROWNED": "a man was crowned that may not be",
    "summary.UNKNOWN": "the board matches no legal move",
    "remedy.CAPTURE_NOT_TAKEN": "Take the move back and capture.",
    "remedy.NOT_HIGHEST_VALUE": "Take the move back and capture the most.",
    "remedy.KING_MUST_CAPTURE": "Take the move back and capture with the king.",
    "remedy.FOURTH_KING_MOVE": "Take the move back and play another piece.",
    "remedy.OPPONENT_PIECE": "Put the piece back.",
    "remedy.WRONG_PIECES_TAKEN": "Put the pieces right.",
    "remedy.UNREACHABLE": "Put the piece back on its square.",
    "remedy.NOT_CROWNED": "Crown the man on {square}.",
    "remedy.WRONGLY_CROWNED": "Take the crown off the piece on {square}.",
    "remedy.UNKNOWN": "Set the board back as it was before the move.",
    "resolved": "Put right.",
    "stands": "The irregular move {played} stands: the opponent has replied.",
    "touch_move": "{side}, touch-move, article 15: the piece on {square} was touched first and must be played.",
    "touch_move_open": "touch-move, article 15: the piece touched first must be played",
    "crown": "{side}: crown the man on {square}.",
    "blocked": "{side}'s king on {square} has made three moves: it may only capture.",
    "seven_start": "Seven-move rule: {side} has seven moves to win.",
    "seven_left": "{side}: {left} moves left.",
    "seven_left_one": "{side}: one move left.",
    "draw_possible": "A draw may be agreed.",
    "taken_back": "Move {move} taken back.",
    "win": "Game over. {side} wins: {reason}.",
    "draw": "Game over. Draw: {reason}.",
    "termination.no pieces": "no pieces left",
    "termination.no legal move": "no move left",
    "termination.one king against one king": "one king against one king",
    "termination.seven-move rule": "the seven-move rule",
    "termination.resignation": "resignation",
    "termination.time": "time",
    "termination.draw agreed": "agreed",
    "termination.arbiter's decision": "the arbiter's decision",
}

_NL: dict[str, str] = {
    "white": "Wit",
    "black": "Zwart",
    "article": "artikel {number}",
    "to": " naar ",
    "takes": " slaat ",
    "or": " of ",
    "move": "{side}: {move}.",
    "irregular": "{side}, onregelmatige zet, {article}: {summary}.",
    "legal": "Toegestaan: {moves}.",
    "summary.CAPTURE_NOT_TAKEN": "slaan is verplicht",
    "summary.NOT_HIGHEST_VALUE": "er moet zo veel mogelijk worden geslagen",
    "summary.KING_MUST_CAPTURE": "bij gelijke waarde slaat de dam",
    "summary.FOURTH_KING_MOVE": "een dam mag geen vierde zet op rij doen",
    "summary.OPPONENT_PIECE": "er is een stuk van de tegenstander verzet",
    "summary.WRONG_PIECES_TAKEN": "er zijn te veel of te weinig stukken weggenomen",
    "summary.UNREACHABLE": "er staat een stuk waar geen zet het kan brengen",
    "summary.NOT_CROWNED": "de schijf is niet gekroond",
    "summary.WRONGLY_CROWNED": "er is een schijf gekroond die dat niet mag",
    "summary.UNKNOWN": "de stelling past bij geen enkele zet",
    "remedy.CAPTURE_NOT_TAKEN": "Neem de zet terug en sla.",
    "remedy.NOT_HIGHEST_VALUE": "Neem de zet terug en sla het meeste.",
    "remedy.KING_MUST_CAPTURE": "Neem de zet terug en sla met de dam.",
    "remedy.FOURTH_KING_MOVE": "Neem de zet terug en speel een ander stuk.",
    "remedy.OPPONENT_PIECE": "Zet het stuk terug.",
    "remedy.WRONG_PIECES_TAKEN": "Zet de stukken goed.",
    "remedy.UNREACHABLE": "Zet het stuk terug op zijn veld.",
    "remedy.NOT_CROWNED": "Kroon de schijf op {square}.",
    "remedy.WRONGLY_CROWNED": "Haal de kroon van het stuk op {square}.",
    "remedy.UNKNOWN": "Zet het bord terug zoals het voor de zet stond.",
    "resolved": "Hersteld.",
    "stands": "De onregelmatige zet {played} blijft staan: de tegenstander heeft geantwoord.",
    "touch_move": "{side}, aanraken is zetten, artikel 15: het stuk op {square} is eerst aangeraakt en moet gespeeld worden.",
    "touch_move_open": "aanraken is zetten, artikel 15: het eerst aangeraakte stuk moet gespeeld worden",
    "crown": "{side}: kroon de schijf op {square}.",
    "blocked": "De dam van {side} op {square} heeft drie zetten gedaan: hij mag alleen nog slaan.",
    "seven_start": "Zevenzettenregel: {side} heeft zeven zetten om te winnen.",
    "seven_left": "{side}: nog {left} zetten.",
    "seven_left_one": "{side}: nog één zet.",
    "draw_possible": "Remise mag worden overeengekomen.",
    "taken_back": "Zet {move} teruggenomen.",
    "win": "Einde partij. {side} wint: {reason}.",
    "draw": "Einde partij. Remise: {reason}.",
    "termination.no pieces": "geen stukken meer",
    "termination.no legal move": "geen zet meer",
    "termination.one king against one king": "één dam tegen één dam",
    "termination.seven-move rule": "de zevenzettenregel",
    "termination.resignation": "opgave",
    "termination.time": "tijd",
    "termination.draw agreed": "overeengekomen",
    "termination.arbiter's decision": "beslissing van de arbiter",
}

#: The tables, read-only: ``PHRASES[language][key]``.
PHRASES: Mapping[str, Mapping[str, str]] = MappingProxyType(
    {"en": MappingProxyType(_EN), "nl": MappingProxyType(_NL)})

#: The espeak-ng voice of each language when the configuration names none.
VOICES: Mapping[str, str] = MappingProxyType({"en": "gmw/en", "nl": "gmw/nl"})

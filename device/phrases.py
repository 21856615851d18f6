"""What the box says and the club's screen writes, in English (``en``) and Dutch (``nl``).

`PHRASES`, what the box says: one table of sentences per language.

espeak-ng has no Frisian voice; Dutch is the players' language in Friesland.  Every table has
the same keys (a test checks it); the values are `str.format` templates whose fields are filled by
`device.speech.Announcer`.  Keys:

- ``white``/``black``: the sides' names;
- ``move``: a move as said (``{side}: {move}``), with ``to``/``takes`` joining the squares;
- ``irregular``: an irregularity (``{side}``, ``{article}``, ``{summary}``), then the remedy, one
  per `rules.events.IrregularityKind` name under ``remedy.NAME`` (fields ``{square}``,
  ``{played}``), then ``legal`` listing the legal moves (``{moves}``, joined with ``or``);
- ``summary.NAME``: what was wrong, per `IrregularityKind` name;
- ``lost``: the companion lost track of the game (`rules.events.LostTrack`), the record stopping
  after ``{move}`` (``lost_at_start`` when no move was recorded), then ``lost_remedy``;
  ``lost_open`` the same on the club's screen while it is open;
- ``resolved``, ``stands``, ``touch_move`` (``touch_move_open``: the same on the club's screen
  while it is open, no side or square), ``crown``, ``blocked``, ``seven_start``,
  ``seven_left``, ``seven_left_one``, ``draw_possible``, ``taken_back``, ``win``, ``draw``;
- ``termination.*``: the reasons a game ends (`rules.outcome.Termination` values).

The club's screen's own sentences that the server writes (the page's fixed words are its
``app.js``'s): `ERRORS`, each error an answer can carry, one table per language by its stable
code (`device.errors.Coded`: said in every language by its code, never by reading the English;
the page shows its own language's), and
`WARNINGS_NL`, a set-up reading's warnings in Dutch by their codes (`device.setup_reading.Said`).
Their templates are filled by `fill`: in Dutch a number takes a decimal comma and the values in
`NL_VALUES` are said in Dutch.
"""

from __future__ import annotations

import string
from types import MappingProxyType
from typing import Any, Mapping

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
    "lost": "I have lost track of the game: moves were played that I did not see. The record stops after {move}.",
    "lost_at_start": "I have lost track of the game: moves were played that I did not see. Nothing is recorded yet.",
    "lost_remedy": "Put the pieces back as they stood then to go on recording, or write the moves down by hand.",
    "lost_open": "lost track of the game: the record stops here",
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
    "lost": "Ik ben de partij kwijt: er zijn zetten gedaan die ik niet heb gezien. De notatie stopt na {move}.",
    "lost_at_start": "Ik ben de partij kwijt: er zijn zetten gedaan die ik niet heb gezien. Er is nog niets genoteerd.",
    "lost_remedy": "Zet de stukken terug zoals ze toen stonden om verder te noteren, of noteer de zetten met de hand.",
    "lost_open": "de partij is kwijt: de notatie stopt hier",
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


# --------------------------------------------------------------------------- the club's screen

#: A position the camera's frame did not give, before what is wrong (`device.setup_reading`).
_NOT_READ = "no position read from the camera's frame: "
_NOT_READ_NL = "geen stelling gelezen van het camerabeeld: "

_EN_ERRORS: dict[str, str] = {
    # the arbiter's right to change things (device.web)
    "pin_needed": "the arbiter's PIN or token is needed",
    "wrong_pin": "wrong PIN",
    "locked_out": "too many wrong PINs from this address: try again in {wait} s",
    "controls_off": "the controls are off: set [web] token in the configuration",
    # a command's way to the service (device.web)
    "not_json": "send the command as application/json",
    "body_not_json": "the body is not JSON",
    "body_not_object": "the body must be a JSON object",
    "no_service": "no service to apply it",
    "no_service_to_ask": "no service to ask",
    "not_applied_in_time": "the service did not apply it in time",
    "not_answered_in_time": "the service did not answer in time",
    "command_failed": "the {command} command failed: see the service's log",
    # the commands (device.commands, device.config.start_position, device.service)
    "no_tags": "give at least one tag, e.g. White or Black",
    "not_a_tag_name": "{name!r} is not a tag name: a capital letter, then letters, digits or _",
    "tag_of_the_game": "the {name} tag is written by the game itself",
    "tag_not_text": "the {name} tag must be text",
    "tag_too_long": "the {name} tag is longer than {limit} characters",
    "not_a_result": "not a result: {result!r}: use 1-0, 0-1 or 1/2-1/2",
    "not_a_reason": "not a reason: {reason!r}: use resignation, draw agreed, time or "
                    "arbiter's decision",
    "resignation_draw": "a resignation is a win: use 1-0 (Black resigned) or 0-1 (White resigned)",
    "agreement_not_draw": "a draw agreed is 1/2-1/2",
    "fen_not_text": "the position must be FEN text",
    "fen_not_a_position": "{shown} is not a position: {problem} (write it as PDN FEN, e.g. "
                          "\"W:W28,K35,40:B12,19,23\": White to move, white men on 28 and 40 "
                          "and a king on 35, black men on 12, 19 and 23)",
    "fen_one_side": "{shown} has pieces of one side only: a game needs pieces of both sides on "
                    "the board",
    "fen_no_move": "{shown}: {side} to move has no legal move, the game would be over before it "
                   "began: check the side to move (W or B) and the squares",
    "over_no_take_back": "the game is over: start a new game",
    "no_move_to_take_back": "there is no move to take back",
    "already_over": "the game is already over: {result} ({reason})",
    "over_no_adjourn": "the game is over: there is nothing to adjourn",
    "no_move_no_adjourn": "no move is recorded yet: there is nothing to adjourn",
    "game_no_move_no_adjourn": "game {game} has no move yet: there is nothing to adjourn",
    "not_a_game_number": "not a game number: {game!r}",
    "no_such_game": "there is no game {game} in {path}",
    "not_adjourned": "game {game} was not adjourned",
    "no_game_in_progress": "no game in progress in {path}",
    "unknown_command": "unknown command {command!r}",
    "no_frame": "no frame from the camera yet",
    "turn_not_found": "the board is not found yet: nothing to turn",
    "turn_moves_recorded": "moves are recorded: take them back, or begin a new game, first",
    # reading a set-up position from the camera (device.web, device.setup_reading)
    "not_a_side": "not a side to move: {turn!r}: use white or black",
    "read_no_board": _NOT_READ + "{problem}",
    "read_pieces_on_light": _NOT_READ + "{count} piece(s) stand on light squares: the picture "
                            "shows no position",
    "read_not_allowed": _NOT_READ + "{problem}",
    "reading_failed": "reading the position failed: see the service's log",
}

_NL_ERRORS: dict[str, str] = {
    "pin_needed": "de PIN of het token van de arbiter is nodig",
    "wrong_pin": "verkeerde PIN",
    "locked_out": "te vaak een verkeerde PIN van dit adres: probeer het over {wait} s opnieuw",
    "controls_off": "de bediening staat uit: stel [web] token in de configuratie in",
    "not_json": "stuur de opdracht als application/json",
    "body_not_json": "de inhoud is geen JSON",
    "body_not_object": "de inhoud moet een JSON-object zijn",
    "no_service": "er is geen service om het uit te voeren",
    "no_service_to_ask": "er is geen service om het te vragen",
    "not_applied_in_time": "de service heeft het niet op tijd uitgevoerd",
    "not_answered_in_time": "de service heeft niet op tijd geantwoord",
    "command_failed": "de opdracht {command} is mislukt: zie het logboek van de service",
    "no_tags": "geef minstens één tag, bijvoorbeeld White of Black",
    "not_a_tag_name": "{name!r} is geen tagnaam: een hoofdletter, dan letters, cijfers of _",
    "tag_of_the_game": "de tag {name} schrijft de partij zelf",
    "tag_not_text": "de tag {name} moet tekst zijn",
    "tag_too_long": "de tag {name} is langer dan {limit} tekens",
    "not_a_result": "geen uitslag: {result!r}: kies 1-0, 0-1 of 1/2-1/2",
    "not_a_reason": "geen reden: {reason!r}: kies opgave, remise overeengekomen, tijd of "
                    "beslissing van de arbiter",
    "resignation_draw": "opgave is een winst: kies 1-0 (zwart gaf op) of 0-1 (wit gaf op)",
    "agreement_not_draw": "remise overeengekomen is 1/2-1/2",
    "fen_not_text": "de stelling moet FEN-tekst zijn",
    # (the FEN reader's own problem is English: the example says what is wanted)
    "fen_not_a_position": "{shown} is geen stelling (schrijf haar als PDN FEN, bijvoorbeeld "
                          "\"W:W28,K35,40:B12,19,23\": wit aan zet, witte schijven op 28 en 40 "
                          "en een dam op 35, zwarte schijven op 12, 19 en 23)",
    "fen_one_side": "{shown} heeft stukken van één kant: een partij heeft stukken van beide "
                    "kanten op het bord nodig",
    "fen_no_move": "{shown}: {side} is aan zet en heeft geen zet, de partij zou voorbij zijn "
                   "voor ze begon: controleer wie aan zet is (W of B) en de velden",
    "over_no_take_back": "de partij is afgelopen: begin een nieuwe partij",
    "no_move_to_take_back": "er is geen zet om terug te nemen",
    "already_over": "de partij is al afgelopen: {result} ({reason})",
    "over_no_adjourn": "de partij is afgelopen: er is niets af te breken",
    "no_move_no_adjourn": "er is nog geen zet vastgelegd: er is niets af te breken",
    "game_no_move_no_adjourn": "partij {game} heeft nog geen zet: er is niets af te breken",
    "not_a_game_number": "geen partijnummer: {game!r}",
    "no_such_game": "er is geen partij {game} in {path}",
    "not_adjourned": "partij {game} is niet afgebroken",
    "no_game_in_progress": "geen partij bezig in {path}",
    "unknown_command": "onbekende opdracht {command!r}",
    "no_frame": "nog geen beeld van de camera",
    "turn_not_found": "het bord is nog niet gevonden: er is niets te draaien",
    "turn_moves_recorded": "er zijn zetten vastgelegd: neem ze eerst terug, of begin een "
                           "nieuwe partij",
    "not_a_side": "geen kant aan zet: {turn!r}: kies wit of zwart",
    # (the reader's own problem is English: said here by what it means for the arbiter)
    "read_no_board": _NOT_READ_NL + "er is geen dambord van 10 bij 10 velden in gevonden",
    "read_pieces_on_light": _NOT_READ_NL + "{count} stuk(ken) op lichte velden: het beeld toont "
                            "geen stelling",
    "read_not_allowed": _NOT_READ_NL + "de regels staan de gelezen stelling niet toe (een "
                        "schijf op de achterste rij van de tegenstander?): staan wit en zwart "
                        "goed om?",
    "reading_failed": "het lezen van de stelling is mislukt: zie het logboek van de service",
}

#: The errors, read-only: ``ERRORS[language][code]``: every table has the same codes, and each
#: code's English template names every value its error carries (a Dutch one may leave some
#: out); a test checks it, and that every code the server can send is here.
ERRORS: Mapping[str, Mapping[str, str]] = MappingProxyType(
    {"en": MappingProxyType(_EN_ERRORS), "nl": MappingProxyType(_NL_ERRORS)})

#: Every warning of a set-up reading in Dutch, by its code (`device.setup_reading.Said`; the
#: English sentences are the reader's own, `vision.notes.Note`): templates of the warning's
#: values, filled by `fill`.
WARNINGS_NL: Mapping[str, str] = MappingProxyType({
    "markers_partial": "maar {seen} van de 4 markers gezien (ID {ids}): het bord is aan zijn "
                       "ruitpatroon gevonden",
    "pieces_on_light": "{count} stuk(ken) op lichte velden ({on_dark} op donkere): het bord is "
                       "verkeerd opgezet of gedraaid (art. 5 en 26)",
    "low_confidence": "{count} vak(ken) onzeker gelezen: {cells}",
    "unsure_kings": "{count} stuk(ken) lijken dammen, maar de camera ziet daar geen zeker "
                    "verschil tussen dam en schijf; als schijf gelezen: {cells}; controleer ze",
    "few_grid_corners": "maar {found} van de 81 hoekpunten van het raster gezien: de omtrek van "
                        "het bord kan verschoven zijn",
    "colours_alike": "de twee kleuren stukken zijn moeilijk uit elkaar te houden",
    "out_of_view": "{count} vak(ken) liggen deels buiten het beeld van de camera ({edges}): "
                   "stukken daar kunnen verkeerd gelezen zijn: {cells}; richt de camera zo dat "
                   "het hele bord ruim in beeld is",
    "kings_top_down": "dammen zijn niet van schijven te onderscheiden: de camera hangt bijna "
                      "recht boven het bord ({tilt:.0f} graden uit het lood); kantel hem 20 tot "
                      "45 graden",
    "kings_camera_far": "dammen zijn niet zeker van schijven te onderscheiden: de bovenkant van "
                        "een dam ligt maar {px:.1f} pixels van die van een schijf (de camera "
                        "staat ver van het bord, {square_px:.0f} pixels per veld); zet hem "
                        "dichterbij",
    "kings_camera_steep": "dammen zijn niet zeker van schijven te onderscheiden: de bovenkant "
                          "van een dam ligt maar {px:.1f} pixels van die van een schijf (de "
                          "camera staat maar {tilt:.0f} graden uit het lood, {square_px:.0f} "
                          "pixels per veld); kantel hem verder, 20 tot 45 graden, of zet hem "
                          "dichterbij",
    "kings_near_camera": "dammen zijn niet zeker van schijven te onderscheiden op {count} "
                         "veld(en) het dichtst bij de camera ({cells}): de bovenkant van een dam "
                         "ligt daar minder dan {sure_px:g} pixels van die van een schijf; kantel "
                         "de camera verder of zet hem dichterbij",
    "kings_colour_scatter": "dammen van de {colour} stukken zijn op deze foto niet zeker van "
                            "schijven te onderscheiden: hun bovenkanten wijken {px:.1f} pixels "
                            "af (een bovenkant valt weg tegen de velden, schittering of "
                            "onscherpte): ze zijn als schijf gelezen",
    "kings_few_men": "dammen zijn niet zeker van schijven te onderscheiden: te weinig schijven "
                     "om mee te vergelijken ({men} van {pieces} stukken; de schijven zijn de "
                     "maat voor de hoogte): elk stuk is als schijf gelezen",
    "kings_scatter": "dammen zijn op deze foto niet zeker van schijven te onderscheiden: de "
                     "bovenkanten van de schijven wijken {px:.1f} pixels af (afwijkende stukken, "
                     "een glanzende bovenkant, onscherpte of een verkeerd gelezen bord): elk "
                     "stuk is als schijf gelezen",
    "orientation_impossible": "veld 46 kan niet {corner} in dit beeld liggen ({by}): die hoek "
                              "is hier een licht veld; is de camera gedraaid?",
})
#: Values said in Dutch otherwise than in English (by the value's name).
NL_VALUES: Mapping[str, Mapping[str, str]] = MappingProxyType({
    "colour": {"lighter": "lichte", "darker": "donkere"},
    "corner": {"top-left": "linksboven", "top-right": "rechtsboven",
               "bottom-right": "rechtsonder", "bottom-left": "linksonder"},
    "by": {"calibration": "zoals het bord eerder gevonden is",
           "markers": "zoals de markers zeggen", "configuration": "zoals ingesteld"},
    "side": {"white": "wit", "black": "zwart"},
    "reason": {"no pieces": "geen stukken meer", "no legal move": "geen zet meer",
               "one king against one king": "één dam tegen één dam",
               "seven-move rule": "zevenzettenregel", "resignation": "opgave", "time": "tijd",
               "draw agreed": "remise overeengekomen",
               "arbiter's decision": "beslissing van de arbiter"},
})


class _Dutch(string.Formatter):
    """`str.format` with a decimal comma."""

    def format_field(self, value: Any, format_spec: str) -> str:
        text = super().format_field(value, format_spec)
        return text.replace(".", ",") if isinstance(value, float) else text


def fields(template: str) -> set[str]:
    """The names of the values ``template`` names."""
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def fill(template: str, language: str, values: Mapping[str, Any]) -> str:
    """``template`` filled with ``values``: in Dutch (``nl``) with a decimal comma and the
    values of `NL_VALUES` said in Dutch; as `str.format` in any other language."""
    if language != "nl":
        return template.format(**values)
    said = {k: NL_VALUES.get(k, {}).get(v, v) if isinstance(v, str) else v
            for k, v in values.items()}
    return _Dutch().format(template, **said)


def error_text(code: str, language: str, values: Mapping[str, Any]) -> str:
    """Error ``code`` with its ``values`` in ``language`` (English for one without a table)."""
    table = ERRORS.get(language, ERRORS["en"])
    return fill(table[code], language if language in ERRORS else "en", values)


def check_error(code: str, values: Mapping[str, Any]) -> None:
    """`ValueError` unless ``code`` is in `ERRORS` and ``values`` are those its English
    sentence names: an error the page cannot say in every language is a bug."""
    template = ERRORS["en"].get(code)
    if template is None:
        raise ValueError(f"no error code {code!r}: add it to device.phrases.ERRORS")
    if set(values) != fields(template):
        raise ValueError(f"the {code!r} error names {sorted(fields(template))}, not {sorted(values)}")


def error_json(code: str, values: Mapping[str, Any]) -> dict[str, Any]:
    """An answer's error as the page reads it (checked, `check_error`): ``error`` the English
    sentence (as before codes), ``code``, and ``text`` the sentence in every language."""
    check_error(code, values)
    return {"error": error_text(code, "en", values), "code": code,
            "text": {language: error_text(code, language, values) for language in ERRORS}}

"""rules.svg: a position drawn as SVG (pure; checked by reading the picture back as XML)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from rules import svg
from rules.position import Position

NS = {"s": "http://www.w3.org/2000/svg"}


def parsed(text: str) -> ET.Element:
    return ET.fromstring(text)


def squares(root: ET.Element) -> dict[int, ET.Element]:
    return {int(r.get("data-square")): r for r in root.iterfind(".//s:rect[@data-square]", NS)}


def pieces(root: ET.Element) -> dict[int, ET.Element]:
    return {int(g.get("data-square")): g for g in root.iterfind(".//s:g[@data-square]", NS)}


def test_the_start_position_has_fifty_squares_and_forty_men():
    root = parsed(svg.board(Position.start()))
    assert sorted(squares(root)) == list(range(1, 51))
    drawn = pieces(root)
    assert sorted(drawn) == list(range(1, 21)) + list(range(31, 51))
    assert all("man" in g.get("class") for g in drawn.values())
    assert all("white" in drawn[sq].get("class") for sq in range(31, 51))
    assert all("black" in drawn[sq].get("class") for sq in range(1, 21))
    assert not root.findall(".//s:polygon", NS)  # no crowns


def test_a_king_is_a_crowned_stack_of_two_discs():
    root = parsed(svg.board(Position.from_fen("W:WK28,40:B12")))
    king = pieces(root)[28]
    assert "king" in king.get("class")
    assert len(king.findall("s:ellipse", NS)) == 2
    assert len(king.findall("s:polygon[@class='crown']", NS)) == 1
    man = pieces(root)[40]
    assert len(man.findall("s:ellipse", NS)) == 1 and not man.findall("s:polygon", NS)


def test_the_last_move_is_marked_with_the_pieces_it_took():
    position = Position.from_fen("W:W33:B28")
    [capture] = position.legal_moves()
    after = position.play(capture)
    root = parsed(svg.board(after, last_move=capture))
    marks = {sq: r.get("class") for sq, r in squares(root).items() if "last" in r.get("class")}
    assert marks == {33: "square last-from", 22: "square last-to"}
    taken = [int(c.get("data-square")) for c in root.iterfind(".//s:circle[@class='taken']", NS)]
    assert taken == [28]


def test_flipped_for_black_square_46_is_at_the_top_right():
    def origin(text: str, sq: int) -> tuple[float, float]:
        r = squares(parsed(text))[sq]
        return float(r.get("x")), float(r.get("y"))

    white = svg.board(Position.start())
    black = svg.board(Position.start(), flipped=True)
    (x46, y46), (x5, y5) = origin(white, 46), origin(white, 5)
    assert x46 < x5 and y46 > y5  # square 46 bottom left, 5 top right as White sees it
    (fx46, fy46), (fx5, fy5) = origin(black, 46), origin(black, 5)
    assert fx46 > fx5 and fy46 < fy5
    assert parsed(black).get("data-side") == "black"


def test_the_same_position_gives_the_same_picture():
    p = Position.from_fen("B:W31,K35:B1,K2")
    assert svg.board(p, size=300) == svg.board(p, size=300)
    assert 'width="300"' in svg.board(p, size=300)

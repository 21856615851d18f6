"""Images to board observations: finding the board, reading squares, settling (the renderer that draws test boards is `renderer`).

Depends on `rules` for square geometry and piece types only (DESIGN.md)."""

"""Images to board observations: finding the board, reading squares, settling, rendering.

Depends on `rules` for square geometry and piece types only (DESIGN.md)."""

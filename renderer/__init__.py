"""The test world: a renderer that draws a Frisian draughts board as a camera sees it.

It is not part of the reading pipeline (`vision`): it draws what the pipeline must read, with its
truth.  `camera_model` (the pinhole, lens and pose), `scene` (board, pieces, light), `hands`
(arms that make the moves), `render` (one picture), `sequence` (whole games as frame sequences).
Every failure mode met outside (a real camera's shake, drift and noise; quick play; hands resting
on the edge) belongs in its defaults, so the benches keep measuring it.
"""

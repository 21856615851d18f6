"""Finished games written as PDN files into a folder (``[paths] pdn_folder``).

The store keeps every game; a club secretary wants the finished ones as files to send or
upload without running `export`.  `PdnFolder` is an event sink: when a game ends (`GameOver`,
by the rules or declared) it writes that game, result included, to ``FOLDER/game-ID.pdn``,
replacing the file atomically (written beside it, then renamed), so a reader never sees half a
game.  A game taken back after it ended and finished again is written again.  A folder that
cannot be written is logged once per game and never stops the game: the store still has it.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Callable

from device.store import GameStore
from rules.events import Event, GameOver

log = logging.getLogger(__name__)


def folder_of(configured: str, database: str | Path) -> Path | None:
    """The folder ``[paths] pdn_folder`` names (None: none), beside the store unless absolute."""
    if not configured:
        return None
    folder = Path(configured)
    return folder if folder.is_absolute() else Path(database).parent / folder


class PdnFolder:
    """Writes each finished game of ``store`` into ``folder`` (made when first needed);
    ``game_id`` gives the game being played (it changes at each new game)."""

    def __init__(self, folder: str | Path, store: GameStore, game_id: Callable[[], int | None]) -> None:
        self.folder = Path(folder)
        self.store = store
        self.game_id = game_id

    def path_of(self, game_id: int) -> Path:
        return self.folder / f"game-{game_id:04d}.pdn"

    def on_event(self, event: Event) -> None:
        if not isinstance(event, GameOver):
            return
        game_id = self.game_id()
        if game_id is None:
            return
        self.write(game_id)

    def write(self, game_id: int) -> None:
        """Write game ``game_id`` as it stands in the store (atomically); a folder it cannot
        write is logged, never raised: the game is safe in the store."""
        path = self.path_of(game_id)
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            part = path.with_name(path.name + ".part")
            part.write_text(self.store.export_pdn(game_id), encoding="utf-8")
            os.replace(part, path)
        except OSError as e:
            log.warning("cannot write game %d to %s: %s; it is in the store (export --game %d)",
                        game_id, path, e.strerror or e, game_id)
            return
        log.info("game %d written to %s", game_id, path)

"""The club's demo (``frisian-companion demo --boards N``): a local broker, N boards watching
rendered games, and the hub showing the round.

mosquitto is started on a free local port (`device.local_broker`, anonymous, this machine only);
each board is the whole companion (`device.app.build`: rendered frames, vision, arbiter, store,
its page on a free port) publishing to it as board 1..N of event ``demo``; the hub
(`device.hub`) follows them and serves the round's page.  Only board 1 speaks.  It ends when
every board's recording has ended (or on Ctrl-C), printing the round's PDN.
"""

from __future__ import annotations

import tempfile
import threading
from dataclasses import replace
from pathlib import Path
from typing import TextIO

from device.config import BrokerConfig, Config, WebConfig
from device.errors import DeviceError

EVENT = "demo"


def run_club(config: Config, boards: int, out: TextIO, stop: threading.Event, *, pdn: str | None,
             fps: float, seed: int, hub_port: int = 0, no_speech: bool = False) -> str:
    """Run the club's demo until every recording ends or ``stop`` is set; the round's PDN."""
    from device.app import Options, build, serve
    from device.hub import Hub
    from device.hub_store import HubStore
    from device.hub_web import HubWebServer
    from device.local_broker import LocalBroker, mosquitto

    if mosquitto() is None:
        raise DeviceError("demo --boards needs the mosquitto broker: apt-get install mosquitto "
                          "(or leave out --boards for one board)")
    with tempfile.TemporaryDirectory(prefix="frisian-club-") as tmp:
        folder = Path(tmp)
        broker = LocalBroker(folder / "broker").start()
        store = HubStore(folder / "hub.sqlite3")
        hub = web = None
        companions = []
        try:
            hub = Hub(BrokerConfig(url=broker.url, event=EVENT), store).start()
            web = HubWebServer(WebConfig(bind=config.web.bind, port=hub_port), hub,
                               language=config.speech.language).start()
            out.write(f"frisian-companion demo: {boards} boards -> broker {broker.url} -> hub\n"
                      f"The round's page: {web.url}"
                      + (f" (from other machines: {web.address_for_others})" if web.address_for_others else "")
                      + "\n")
            for n in range(1, boards + 1):
                board_config = replace(config, broker=BrokerConfig(enabled=True, url=broker.url, event=EVENT, board=n),
                                       web=replace(config.web, port=0),
                                       tags={**config.tags, "Event": "Club demo", "Round": "1", "Board": str(n)})
                companion = build(board_config, Options(
                    source="render", pdn=pdn, render_fps=fps, render_seed=seed + n - 1,
                    database=str(folder / f"board{n}.sqlite3"),
                    speech=False if (no_speech or n > 1) else None, mock_pins=True), out)
                companions.append(companion)
                if companion.web is not None:
                    out.write(f"Board {n}'s own page: {companion.web.url}\n")
            out.flush()
            threads = [threading.Thread(target=serve, args=(c,), kwargs={"stop": stop}, daemon=True)
                       for c in companions]
            for c in companions:
                c.open_game()
            for t in threads:
                t.start()
            for t in threads:
                while t.is_alive():
                    t.join(0.5)
        finally:
            for c in companions:
                c.close()
            if hub is not None:
                import time

                time.sleep(1.0)  # the last events reach the hub
                with hub.lock:
                    text = hub.round.pdn()
            else:
                text = ""
            if web is not None:
                web.close()
            if hub is not None:
                hub.close()
            store.close()
            broker.stop()
    return text

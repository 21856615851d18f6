"""The MQTT client (paho-mqtt), the same on Debian's 1.6 and PyPI's 2.x.

paho-mqtt 2.0 changed its callbacks' arguments (`paho.mqtt.enums.CallbackAPIVersion`); Debian
bookworm and Raspberry Pi OS package 1.6.1 (``python3-paho-mqtt``, what the Pi's venv uses),
pip gives 2.x.  `connect` makes a client of either, asks for version 2 of the callbacks where
there is a choice, and hands our callbacks plain values whichever version calls them.  The
client runs paho's own network thread (``loop_start``), which connects, and connects again
after the broker went away, by itself: `connect` never waits for the broker.
"""

from __future__ import annotations

import logging
import ssl
import urllib.parse
from dataclasses import dataclass
from typing import Any, Callable

import paho.mqtt as paho_mqtt
from paho.mqtt import client as paho

log = logging.getLogger(__name__)

#: After the broker went away paho tries again after 1 s, doubling up to this (seconds).
RECONNECT_MAX_S = 4
KEEPALIVE_S = 15
PAHO_VERSION = getattr(paho_mqtt, "__version__", "?")
URL_FORMS = "mqtt://HOST:PORT, or mqtts://HOST:PORT for TLS (e.g. mqtt://hub.local:1883)"


@dataclass(frozen=True, slots=True)
class BrokerAddress:
    host: str
    port: int
    tls: bool

    def __str__(self) -> str:
        return f"{'mqtts' if self.tls else 'mqtt'}://{self.host}:{self.port}"


def parse_url(url: str) -> BrokerAddress:
    """``mqtt://HOST[:PORT]`` (1883) or ``mqtts://HOST[:PORT]`` (8883); ValueError otherwise."""
    try:
        parts = urllib.parse.urlsplit(url.strip())
        port = parts.port
    except ValueError:
        raise ValueError(f"is not a broker address: write {URL_FORMS}") from None
    if parts.scheme not in ("mqtt", "mqtts") or not parts.hostname:
        raise ValueError(f"is not a broker address: write {URL_FORMS}")
    if parts.path not in ("", "/") or parts.query or parts.username:
        raise ValueError(f"has more than a host and port: write {URL_FORMS} (the user name and "
                         "password are broker.username and broker.password)")
    tls = parts.scheme == "mqtts"
    return BrokerAddress(parts.hostname, port or (8883 if tls else 1883), tls)


@dataclass
class Handlers:
    """What the client calls, on paho's thread (each must not block): ``connected()``,
    ``refused(reason)`` (the broker said no: bad name or password, not allowed),
    ``disconnected()``, ``published(mid)`` (the broker acknowledged message ``mid``),
    ``message(topic, payload, retained)``."""

    connected: Callable[[], None] = lambda: None
    refused: Callable[[str], None] = lambda reason: None
    disconnected: Callable[[], None] = lambda: None
    published: Callable[[int], None] = lambda mid: None
    message: Callable[[str, bytes, bool], None] = lambda topic, payload, retained: None


def _failed(rc: Any) -> bool:
    failure = getattr(rc, "is_failure", None)
    return bool(failure) if failure is not None else rc != 0


def connect(address: BrokerAddress, client_id: str, handlers: Handlers, *, username: str = "",
            password: str = "", ca_file: str = "", will: tuple[str, bytes] | None = None,
            clean_session: bool = True) -> Any:
    """A paho client connecting to ``address`` on its own thread (started; call `stop`)."""
    kw: dict[str, Any] = {"client_id": client_id, "clean_session": clean_session}
    try:
        from paho.mqtt.enums import CallbackAPIVersion  # paho-mqtt 2
        client = paho.Client(CallbackAPIVersion.VERSION2, **kw)
    except ImportError:  # paho-mqtt 1.x (Debian's, the Pi's)
        client = paho.Client(**kw)

    def on_connect(_client, _userdata, _flags, rc, *_):
        if _failed(rc):
            handlers.refused(str(rc) if not isinstance(rc, int) else paho.connack_string(rc))
        else:
            handlers.connected()

    def on_disconnect(_client, _userdata, *args):
        handlers.disconnected()

    def on_publish(_client, _userdata, mid, *_):
        handlers.published(mid)

    def on_message(_client, _userdata, msg):
        handlers.message(msg.topic, msg.payload, bool(msg.retain))

    client.on_connect = on_connect
    client.on_disconnect = on_disconnect
    client.on_publish = on_publish
    client.on_message = on_message
    if username:
        client.username_pw_set(username, password or None)
    if address.tls:
        client.tls_set(ca_certs=ca_file or None, cert_reqs=ssl.CERT_REQUIRED)
    if will is not None:
        client.will_set(will[0], will[1], qos=1, retain=True)
    client.max_inflight_messages_set(100)
    client.max_queued_messages_set(0)
    client.reconnect_delay_set(1, RECONNECT_MAX_S)
    client.connect_async(address.host, address.port, keepalive=KEEPALIVE_S)
    client.loop_start()
    return client


def stop(client: Any, goodbye: tuple[str, bytes] | None = None, timeout: float = 2.0) -> None:
    """Disconnect (publishing ``goodbye`` first when connected) and end paho's thread."""
    try:
        if goodbye is not None and client.is_connected():
            info = client.publish(goodbye[0], goodbye[1], qos=1, retain=True)
            try:
                info.wait_for_publish(timeout)
            except (RuntimeError, ValueError):
                pass
        client.disconnect()
    finally:
        client.loop_stop()

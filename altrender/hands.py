"""Hands and arms as capsules (forearm, sleeve, palm, thumb, index and curled fingers), posed
from the point between thumb and index finger and the player's shoulder; drawn shaded by the
painter's algorithm, and their shadows cast on the table along each light.

The skin runs from light to dark; the sleeve is any colour, the table's included.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from altrender.raster import Layer

SKIN = [(236, 200, 176), (224, 172, 140), (198, 140, 104), (160, 106, 72), (112, 72, 48), (78, 52, 38)]


@dataclass
class HandModel:
    size: float  # scale, 1 = an adult's hand
    skin: np.ndarray  # linear RGB
    sleeve: np.ndarray
    sleeve_start: float  # where the sleeve begins along the forearm, 0 wrist .. 1 elbow
    right: bool

    @classmethod
    def random(cls, rng: np.random.Generator, table_colour: np.ndarray) -> "HandModel":
        from altrender.scene import linear

        skin = linear(np.clip(np.asarray(SKIN[int(rng.integers(len(SKIN)))]) + rng.normal(0, 8, 3), 10, 250))
        sleeve = table_colour * rng.uniform(0.8, 1.2) if rng.random() < 0.2 else linear(rng.uniform(15, 235, 3))
        return cls(size=float(rng.uniform(0.85, 1.12)), skin=skin.astype(np.float32),
                   sleeve=np.asarray(sleeve, np.float32), sleeve_start=float(rng.uniform(0.05, 0.8)),
                   right=bool(rng.random() < 0.85))


@dataclass
class Capsule:
    a: np.ndarray
    b: np.ndarray
    r: float
    colour: np.ndarray


def capsules(model: HandModel, pinch: np.ndarray, shoulder: np.ndarray, grip: float = 0.5,
             flat: float = 0.0) -> list[Capsule]:
    """The arm and hand reaching ``pinch`` (between thumb and index tip) from ``shoulder``.
    ``grip`` 0 closed .. 1 open; ``flat`` 0 a pinching hand .. 1 lying flat on the table."""
    s = model.size
    p = np.asarray(pinch, np.float64)
    d = shoulder - p
    d[2] = 0
    d /= max(np.linalg.norm(d), 1e-6)  # horizontal, towards the player
    side = np.array([-d[1], d[0], 0.0]) * (1 if model.right else -1)  # towards the thumb side
    up = np.array([0, 0, 1.0])
    lift = (1 - flat) * 1.0 + flat * 0.25
    wrist = p + d * 85 * s + up * 55 * s * lift + side * 10 * s
    knuck = p + d * 30 * s + up * 38 * s * lift - side * 4 * s
    elbow = wrist + d * 250 * s + up * (110 + 40 * flat) * s
    out = []
    # the upper arm goes out of the picture towards the shoulder
    out.append(Capsule(elbow, shoulder, 48 * s, model.sleeve))
    mid = wrist + (elbow - wrist) * model.sleeve_start
    out.append(Capsule(mid, elbow, 40 * s, model.sleeve))
    out.append(Capsule(wrist, mid, 26 * s, model.skin))
    out.append(Capsule(wrist, knuck, 27 * s, model.skin * 0.97))  # palm
    gap = 4 + 18 * grip
    # curled middle, ring and little fingers under the palm
    for k, off in enumerate((-12, -26, -38)):
        base = knuck - side * (off * -1 * 0.0 + 10 + 12 * k) * s * 0.8 + up * -4 * s
        tip = base - d * (26 - 4 * k) * s * (1 - 0.5 * flat) - up * (22 * (1 - flat) + 10 * flat) * s
        out.append(Capsule(base, tip, (8.5 - 0.8 * k) * s, model.skin * 0.93))
    # index finger: knuckle -> middle joint -> tip at the pinch
    idx_tip = p - side * gap / 2
    idx_mid = knuck + (idx_tip - knuck) * 0.5 + up * 12 * s * (1 - flat)
    out.append(Capsule(knuck - side * 6 * s, idx_mid, 9 * s, model.skin))
    out.append(Capsule(idx_mid, idx_tip, 8 * s, model.skin))
    # thumb: from the wrist's side to the pinch
    th_base = wrist + side * 22 * s - d * 10 * s - up * 6 * s
    th_tip = p + side * gap / 2
    th_mid = th_base + (th_tip - th_base) * 0.55 + side * 8 * s
    out.append(Capsule(th_base, th_mid, 11 * s, model.skin * 0.98))
    out.append(Capsule(th_mid, th_tip, 9 * s, model.skin))
    return out


def draw(layer: Layer, camera, scene, caps: list[Capsule]) -> None:
    """Shaded capsules, farthest first; each as three nested bands (a round limb lit from above)."""
    eye = camera.eye
    caps = [_in_front(camera, c) for c in caps]
    caps = [c for c in caps if c is not None]
    if not caps:
        return
    mids = np.array([(c.a + c.b) / 2 for c in caps])
    order = np.argsort(-np.linalg.norm(mids - eye, axis=1))
    ends = camera.project(np.concatenate([np.array([c.a, c.b]) for c in caps]))
    depth = camera.depth(mids)
    light = scene.irradiance(mids, np.tile([0, 0, 1.0], (len(caps), 1)))
    side = scene.irradiance(mids, np.tile([0.7, 0, 0.7], (len(caps), 1)))
    for i in order:
        c = caps[i]
        if depth[i] <= 10:
            continue
        rpx = c.r * camera.K[0, 0] / depth[i]
        a, b = ends[2 * i], ends[2 * i + 1]
        base = c.colour * (0.55 * light[i] + 0.45 * side[i])
        layer.capsule(a, b, rpx, base * 0.7)
        layer.capsule(a, b, rpx * 0.75, base * 0.9)
        layer.capsule(a, b, rpx * 0.4, base * 1.08)


NEAREST_MM = 300.0


def _in_front(camera, c: Capsule) -> Capsule | None:
    """The part of ``c`` at least `NEAREST_MM` in front of the lens (an arm passing near or
    behind the camera leaves the picture there), or None."""
    da, db = camera.depth(np.array([c.a, c.b]))
    if da >= NEAREST_MM and db >= NEAREST_MM:
        return c
    if da < NEAREST_MM and db < NEAREST_MM:
        return None
    u = (NEAREST_MM - da) / (db - da)
    cut = c.a + (c.b - c.a) * u
    return Capsule(cut, c.b, c.r, c.colour) if da < NEAREST_MM else Capsule(c.a, cut, c.r, c.colour)


def shadow_mask(mask: np.ndarray, scale: float, camera, scene, caps: list[Capsule], held: list[np.ndarray]) -> None:
    """Accumulate the capsules' shadows on the table (z = 0) into ``mask`` (a picture-shaped
    mask at ``scale`` of the picture's size), one light at a time, each weighted by its share
    of the light; ``held`` are the silhouettes (N, 3) of pieces in the air."""
    total = sum(l.intensity for l in scene.lights) + scene.ambient
    for l in scene.lights:
        share = l.intensity / total
        tmp = np.zeros_like(mask)
        for c in caps:
            pa, pb = _onto_table(l, c.a), _onto_table(l, c.b)
            if pa is None or pb is None:
                continue
            uv = safe_project(camera, np.array([pa, pb]))
            if uv is None:
                continue
            uv = uv * scale
            mid = (pa + pb) / 2
            rpx = c.r * camera.K[0, 0] / max(camera.depth(mid[None])[0], 10) * scale
            cv2.line(tmp, tuple(int(v) for v in np.round(uv[0] * 8)), tuple(int(v) for v in np.round(uv[1] * 8)),
                     1.0, max(1, int(2 * rpx)), cv2.LINE_8, 3)
        for sil in held:
            fill_shadow(tmp, scale, camera, l, sil)
        # softer the higher the hand: blur by the light's size at a typical hand height
        blur = max(1.0, 120 * l.size * camera.K[0, 0] / 700 * scale)
        tmp = cv2.GaussianBlur(tmp, (0, 0), blur)
        mask += share * tmp


def fill_shadow(mask: np.ndarray, scale: float, camera, light, outline: np.ndarray) -> None:
    """Fill into ``mask`` (at ``scale`` of the picture) the shadow that ``light`` casts on the
    table of a convex ``outline`` (N, 3 points): its points projected onto the table along the
    light, then into the picture, their hull filled (nothing when any point casts no shadow)."""
    proj = [_onto_table(light, q) for q in outline]
    if any(q is None for q in proj):
        return
    uv = safe_project(camera, np.array(proj))
    if uv is None:
        return
    hull = cv2.convexHull(np.round(uv * scale * 8).astype(np.int32))
    cv2.fillConvexPoly(mask, hull, 1.0, cv2.LINE_8, 3)


def safe_project(camera, pts: np.ndarray) -> np.ndarray | None:
    """``camera.project`` for points well in front of the lens, clipped to a drawable range;
    None when a point is not."""
    if (camera.depth(pts) < 50).any():
        return None
    uv = camera.project(pts)
    if not np.isfinite(uv).all():
        return None
    return np.clip(uv, -20000, 20000)


def _onto_table(light, point: np.ndarray) -> np.ndarray | None:
    if point[2] <= 0:
        return np.array([point[0], point[1], 0.0])
    d, _ = light.towards(np.asarray(point, np.float64)[None])
    d = d[0]
    if d[2] <= 0.05:
        return None
    s = point[2] / d[2]
    return point - d * s

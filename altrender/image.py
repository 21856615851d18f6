"""One frame of the world in linear light (RGB float32): the table and board (textures laid on the
ground through the lens once per camera), the resting discs with their soft shadows (redrawn only
when a disc came to rest or was picked up), then each frame the shadows of hands, held discs and
passing spectators, the held discs and the hands (smeared along their motion)."""

from __future__ import annotations

import math

import cv2
import numpy as np

from altrender import hands as hands_mod
from altrender.pieces import N_SIDES, Disc, disc_outline, draw_disc, stack_box
from altrender.raster import Layer, motion_kernel

SHADOW_SCALE = 0.25


class Painter:
    def __init__(self, scene, camera) -> None:
        self.scene, self.camera = scene, camera
        w, h = camera.width, camera.height
        ground = camera.ground_map()
        sc = scene
        # the board: texture coordinates (x + border, size - y + border) * px/mm
        # textures blurred down to the picture's sampling where they are finer (no moire)
        px = camera.px_per_mm(np.array([sc.size / 2, sc.size / 2, 0.0]))

        def prefilter(tex: np.ndarray, k: float) -> np.ndarray:
            ratio = k / px
            return cv2.GaussianBlur(tex, (0, 0), 0.5 * ratio) if ratio > 1.2 else tex

        k = sc.BOARD_PX_PER_MM
        bx = ((ground[..., 0] + sc.border) * k - 0.5).astype(np.float32)
        by = ((sc.size - ground[..., 1] + sc.border) * k - 0.5).astype(np.float32)
        board = cv2.remap(prefilter(sc.board_texture(), k), bx, by, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        kt = sc.TABLE_PX_PER_MM
        tx = ((ground[..., 0] - sc.size / 2 + sc.TABLE_HALF) * kt - 0.5).astype(np.float32)
        ty = ((sc.size / 2 - ground[..., 1] + sc.TABLE_HALF) * kt - 0.5).astype(np.float32)
        table = cv2.remap(prefilter(sc.table_texture(), kt), tx, ty, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
        # the board's edge anti-aliased: coverage from the distance to the edge in pixels
        inside = np.minimum.reduce([ground[..., 0] + sc.border, sc.size + sc.border - ground[..., 0],
                                    ground[..., 1] + sc.border, sc.size + sc.border - ground[..., 1]])
        cover = np.clip(inside * px + 0.5, 0, 1)[..., None]
        albedo = board * cover + table * (1 - cover)
        # the board stands a few millimetres proud: a dark line along its outer edge
        edge = np.clip(1 - np.abs(inside + 1.5) * px / 1.5, 0, 1)[..., None]
        albedo *= 1 - 0.45 * edge
        light = sc.irradiance(ground)
        img = albedo * light
        if sc.board_gloss > 0:
            img += sc.board_gloss * 0.25 * sc.specular(ground, camera.eye) * cover
        self.base = img.astype(np.float32)
        self.key = None
        self.static = None
        self.size = (h, w)

    # -- the static layer -----------------------------------------------------------------------

    def _shadows(self, mask: np.ndarray, discs: list[Disc]) -> None:
        sc, cam = self.scene, self.camera
        total = sum(l.intensity for l in sc.lights) + sc.ambient
        for l in sc.lights:
            tmp = np.zeros_like(mask)
            for d in discs:
                hands_mod.fill_shadow(tmp, SHADOW_SCALE, cam, l, disc_outline(sc, d)[::6])
            blur = max(0.6, 15 * l.size * cam.K[0, 0] / 800 * SHADOW_SCALE)
            mask += (l.intensity / total) * cv2.GaussianBlur(tmp, (0, 0), blur)
        # contact shadow (ambient light blocked right around the base)
        tmp = np.zeros_like(mask)
        for d in discs:
            if d.z > 1:
                continue
            base = disc_outline(sc, d)[:N_SIDES] * [1, 1, 1]
            uv = cam.project(base[::4]) * SHADOW_SCALE
            hull = cv2.convexHull(np.round(uv * 8).astype(np.int32))
            cv2.fillConvexPoly(tmp, hull, 1.0, cv2.LINE_8, 3)
        mask += 0.5 * (sc.ambient / total) * cv2.GaussianBlur(tmp, (0, 0), 1.0)

    def _static(self, rest: list[tuple[int, np.ndarray]], tokens) -> np.ndarray:
        key = tuple((k, round(float(p[0]), 2), round(float(p[1]), 2), round(float(p[2]), 2)) for k, p in rest)
        if key == self.key:
            return self.static
        h, w = self.size
        discs = [Disc(float(p[0]), float(p[1]), float(p[2]), tokens[k].light) for k, p in rest]
        mask = np.zeros((int(h * SHADOW_SCALE), int(w * SHADOW_SCALE)), np.float32)
        self._shadows(mask, discs)
        mask = cv2.resize(mask, (w, h), interpolation=cv2.INTER_LINEAR)
        img = self.base * (1 - np.clip(mask, 0, 0.95))[..., None]
        self._draw_discs(img, discs, factor=3)
        self.key, self.static = key, img
        return img

    def _draw_discs(self, img: np.ndarray, discs: list[Disc], factor: int, blur=None) -> None:
        """Discs grouped into stacks (same place), farthest stack first, bottom disc first."""
        sc, cam = self.scene, self.camera
        stacks: dict[tuple[int, int], list[Disc]] = {}
        for d in discs:
            stacks.setdefault((round(d.x / 5), round(d.y / 5)), []).append(d)
        groups = sorted(stacks.values(), key=lambda g: -float(np.linalg.norm(np.array([g[0].x, g[0].y, 0]) - cam.eye)))
        for g in groups:
            g.sort(key=lambda d: d.z)
            layer = Layer(stack_box(cam, sc, g), factor, img.shape[:2])
            for d in g:
                draw_disc(layer, cam, sc, d)
            layer.over(img, blur)

    # -- a frame -------------------------------------------------------------------------------

    def frame(self, play, t: float, exposure_s: float) -> np.ndarray:
        sc, cam = self.scene, self.camera
        rest, held = play.discs(t)
        img = self._static(rest, play.tokens).copy()
        h, w = self.size
        tracks = play.active(t)
        shadows = [s for s in play.shadows if s.t0 <= t <= s.t1]
        if tracks or held or shadows:
            mask = np.zeros((int(h * SHADOW_SCALE), int(w * SHADOW_SCALE)), np.float32)
            caps_all = []
            for tr in tracks:
                caps = tr.capsules(t)
                if caps:
                    caps_all.extend(caps)
            sils = [disc_outline(sc, Disc(float(p[0]), float(p[1]), float(p[2]), True))[::8] for _, p, _ in held]
            if caps_all or sils:
                hands_mod.shadow_mask(mask, SHADOW_SCALE, cam, sc, caps_all, sils)
            total = sum(l.intensity for l in sc.lights) + sc.ambient
            for s in shadows:  # a person between the lamp and the board: a big soft shade
                u = (t - s.t0) / (s.t1 - s.t0)
                c = s.a + (s.b - s.a) * u
                ring = np.array([[c[0] + s.radius * math.cos(a), c[1] + s.radius * 0.6 * math.sin(a), 0]
                                 for a in np.linspace(0, 2 * np.pi, 24, endpoint=False)])
                uv = cam.project(ring) * SHADOW_SCALE
                tmp = np.zeros_like(mask)
                cv2.fillConvexPoly(tmp, np.round(uv * 8).astype(np.int32), 1.0, cv2.LINE_8, 3)
                soft = max(2.0, 0.35 * s.radius * cam.px_per_mm(c) * SHADOW_SCALE)
                mask += s.strength * (1 - sc.ambient / total) * cv2.GaussianBlur(tmp, (0, 0), soft)
            ys, xs = np.nonzero(mask > 0.004)
            if len(ys):
                y0, y1 = int(ys.min() / SHADOW_SCALE), min(h, int((ys.max() + 1) / SHADOW_SCALE))
                x0, x1 = int(xs.min() / SHADOW_SCALE), min(w, int((xs.max() + 1) / SHADOW_SCALE))
                full = cv2.resize(mask, (w, h), interpolation=cv2.INTER_LINEAR)[y0:y1, x0:x1]
                img[y0:y1, x0:x1] *= (1 - np.clip(full, 0, 0.95))[..., None]
        for tr in tracks:
            caps = [c for c in (hands_mod._in_front(cam, c) for c in tr.capsules(t) or []) if c is not None]
            mine = [(k, p) for k, p, owner in held if owner is tr]
            if not caps:
                continue
            # the smear of the hand's motion during the exposure
            a, b = tr.at(max(tr.t0, t - exposure_s / 2)), tr.at(min(tr.t1, t + exposure_s / 2))
            blur = None
            if a is not None and b is not None:
                ua, ub = cam.project(np.array([a[0], b[0]]))
                blur = motion_kernel(*(ub - ua))
            boxes = [stack_box(cam, sc, [Disc(float(p[0]), float(p[1]), float(p[2]), True)]) for _, p in mine]
            uv = cam.project(np.concatenate([np.array([c.a, c.b]) for c in caps]))
            r = max(c.r for c in caps) * cam.K[0, 0] / max(200.0, float(cam.depth(np.array([caps[-1].b]))[0]))
            x0, y0 = uv.min(0) - r - 4
            x1, y1 = uv.max(0) + r + 4
            for bx in boxes:
                x0, y0, x1, y1 = min(x0, bx[0]), min(y0, bx[1]), max(x1, bx[2]), max(y1, bx[3])
            pad = 0 if blur is None else blur.shape[0]
            layer = Layer((x0 - pad, y0 - pad, x1 + pad, y1 + pad), 2, (h, w))
            for k, p in sorted(mine, key=lambda kp: kp[1][2]):
                draw_disc(layer, cam, sc, Disc(float(p[0]), float(p[1]), float(p[2]), play.tokens[k].light))
            hands_mod.draw(layer, cam, sc, caps)
            layer.over(img, blur)
        return img

"""Draughts pieces as meshes: a flat cylinder (0.76-0.86 of a square across, about a fifth of that
high) with a chamfered or ridged rim and a concentric groove on top; a king is two of them
stacked, the top one a little off centre.  `draw_stack` shades and draws one stack (bottom first)
into a `raster.Layer` by the painter's algorithm with back faces culled."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from altrender.raster import Layer

N_SIDES = 72  # facets around the rim (the ridges alternate)


@dataclass(frozen=True)
class Disc:
    """One man's disc: its bottom centre (x, y, z) in mm, and its colour set ("light"/"dark")."""

    x: float
    y: float
    z: float
    light: bool


_ANG = np.linspace(0, 2 * np.pi, N_SIDES, endpoint=False)
_COS, _SIN = np.cos(_ANG), np.sin(_ANG)


def _ring(c: np.ndarray, r: float, z: float) -> np.ndarray:
    return np.stack([c[0] + r * _COS, c[1] + r * _SIN, np.full(N_SIDES, c[2] + z)], -1)


def disc_outline(scene, disc: Disc) -> np.ndarray:
    """The disc's silhouette points in the world (bottom and top rings), (2N, 3)."""
    R, H = scene.diameter / 2, scene.height
    c = np.array([disc.x, disc.y, disc.z])
    return np.concatenate([_ring(c, R, 0), _ring(c, R, H)])


def draw_disc(layer: Layer, camera, scene, disc: Disc, tilt: np.ndarray | None = None) -> None:
    """Draw one disc.  ``tilt`` (3,) tips the disc's axis (a piece held at a slant)."""
    R, H = scene.diameter / 2, scene.height
    chamfer = 0.22 * H if scene.rim == "chamfer" else 0.1 * H
    c = np.array([disc.x, disc.y, disc.z], np.float64)
    rings = [_ring(c, R * 0.96, 0), _ring(c, R, 0.12 * H), _ring(c, R, H - chamfer), _ring(c, R - chamfer, H)]
    if tilt is not None:
        for k, rg in enumerate(rings):
            rel = rg - c
            rings[k] = c + rel + np.outer(rel[:, 2], tilt)
    pts = np.concatenate(rings)
    uv = camera.project(pts).reshape(len(rings), N_SIDES, 2)
    eye = camera.eye
    albedo = scene.light_set if disc.light else scene.dark_set
    # faces between ring k and k+1, facet j -> j+1
    bands = [(0, -0.5), (1, 0.0), (2, 0.7)]  # (ring index, normal's z component)
    faces, normals, centres, ridge = [], [], [], []
    for k, nz in bands:
        a, b = rings[k], rings[k + 1]
        for j in range(N_SIDES):
            j2 = (j + 1) % N_SIDES
            quad = np.array([a[j], a[j2], b[j2], b[j]])
            cen = quad.mean(0)
            nrm = np.array([math.cos(_ANG[j] + math.pi / N_SIDES), math.sin(_ANG[j] + math.pi / N_SIDES), 0.0])
            nrm = nrm * math.sqrt(1 - nz * nz) + np.array([0, 0, nz])
            if np.dot(nrm, eye - cen) <= 0:
                continue
            faces.append((k, j, j2))
            normals.append(nrm)
            centres.append(cen)
            ridge.append(scene.rim == "ridged" and k == 1 and j % 2 == 1)
    top_c = c + np.array([0, 0, H]) + (tilt * H if tilt is not None else 0)
    normals.append(np.array([0, 0, 1.0]))
    centres.append(top_c)
    N = np.array(normals)
    P = np.array(centres)
    light = scene.irradiance(P, N)
    colours = albedo * light
    if scene.piece_gloss > 0:
        v = eye - P
        v /= np.linalg.norm(v, axis=1, keepdims=True)
        for l in scene.lights:
            d, fall = l.towards(P)
            h = d + v
            h /= np.linalg.norm(h, axis=1, keepdims=True)
            s = np.clip((h * N).sum(1), 0, 1) ** 40
            colours += (scene.piece_gloss * l.intensity * fall * s)[:, None] * l.colour
    for i, (k, j, j2) in enumerate(faces):
        col = colours[i] * (0.8 if ridge[i] else 1.0)
        layer.poly(np.array([uv[k, j], uv[k, j2], uv[k + 1, j2], uv[k + 1, j]]), col)
    top = colours[-1]
    layer.poly(uv[3], top)
    # the groove: a dark ring with a lit edge inside it
    groove = _ring(top_c, R * 0.6, 0)
    inner = _ring(top_c, R * 0.6 - 0.8, 0)
    px = camera.px_per_mm(top_c)
    layer.polyline(camera.project(groove), max(0.6, 1.0 * px), top * 0.55)
    layer.polyline(camera.project(inner), max(0.4, 0.5 * px), top * 1.12)
    if scene.rim == "ridged":  # a second, fainter groove nearer the rim
        layer.polyline(camera.project(_ring(top_c, R * 0.82, 0)), max(0.4, 0.5 * px), top * 0.75)


def stack_box(camera, scene, discs: list[Disc], margin: float = 3.0) -> tuple[float, float, float, float]:
    uv = camera.project(np.concatenate([disc_outline(scene, d) for d in discs]))
    return (uv[:, 0].min() - margin, uv[:, 1].min() - margin, uv[:, 0].max() + margin, uv[:, 1].max() + margin)

"""A second, independent renderer of whole Frisian draughts games as camera frames.

Written without looking at `renderer/` or `vision/`, so that the companion is measured on scenes
its own renderer's authors did not shape.  World units are millimetres; the board's playing
area spans x (columns, from White's left) and y (from White's back row towards Black's) over 10
squares, z up; White sits on the side of negative y.

- `scene`: board, table, piece sets and room light, and their textures;
- `camera`: a pinhole camera with lens distortion and pose, and a sensor (auto exposure that
  lags, white balance drift, noise, Bayer mosaic, vignetting, shake, focus breathing, JPEG);
- `pieces`: draughts pieces as meshes (chamfered or ridged rim, groove on top), drawn shaded;
- `hands`: arms and hands as capsules, and their shadows;
- `play`: a game played by hands at a random pace, as a timeline with a truth for every time;
- `raster`: anti-aliased painter's-algorithm drawing on oversampled patches;
- `image`: one frame of the world in linear light (static layer cached per board state);
- `source`: `AltRenderedSource`, a `device.sources.FrameSource`.
"""

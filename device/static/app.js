// The club's screen: the live state from /api/events, the arbiter's controls to /api/*.
// Names, tags and announcements are placed as text (textContent), never as markup; the board
// is the server's own SVG (drawn from numbers only, rules/svg.py).
"use strict";

const WORDS = {
  en: {
    flip: "Turn the board", connecting: "connecting…", live: "live", offline: "reconnecting…",
    counters: "King moves (Art. 17) and seven-move rule (Art. 18)", white: "White", black: "Black",
    seven: "Seven-move", moves: "Moves", announcements: "Announcements",
    pdn_game: "PDN of this game", pdn_day: "PDN of today", pdn_event: "PDN of the event", arbiter: "Arbiter", pin: "PIN",
    unlock: "Unlock", controls_off: "The controls are off (no token configured).",
    event: "Event", round: "Round", board_no: "Board", save: "Save",
    take_back: "Take back the last move", resignation: "resignation", agreement: "draw agreed",
    time: "time", arbiter_decision: "arbiter's decision", declare: "Declare the result",
    new_game: "New game", logout: "Lock", adjourn: "Adjourn", resume: "Resume",
    turn: "White and Black swapped: turn the reading",
    no_adjourned: "no adjourned game", camera: "Camera view (for placing the camera)",
    refresh: "Refresh", every_second: "every second", left: "moves left", wrong_pin: "Wrong PIN",
    done: "Done", round_prefix: "round", board_prefix: "board",
    locked_out: "Too many wrong PINs: try again later",
    setup: "Set up a position", read_camera: "Read from the camera", half_turn: "Turn it half round",
    to_move: "To move", play_from: "Play from this position", reading: "Reading the board…",
    setup_hint: "Click a square to change it: empty, white man, black man, white king, black king.",
    pieces: { ".": "empty", w: "white man", b: "black man", W: "white king", B: "black king" },
    may_be: "may be", unsure_king: "the camera cannot tell a king from a man there",
    unsure_colour: "read with low confidence",
    corners: { "top-left": "top left", "top-right": "top right", "bottom-right": "bottom right",
               "bottom-left": "bottom left" },
    by: {
      calibration: "Square 46 is at the {corner} of the picture, as the companion found the board.",
      markers: "Square 46 is at the {corner} of the picture, as the markers show.",
      configuration: "Square 46 is at the {corner} of the picture, as configured.",
      guess: "Which side is White's could not be told: square 46 is taken to be at the {corner} of the picture. If White and Black are the wrong way round, turn it half round.",
      arbiter: "Square 46 is at the {corner} of the picture: the arbiter turned the position half round.",
    },
    fen_placeholder: "FEN (empty: the start position)",
    terminations: {},  // English: as the store names them (rules.outcome.Termination)
    bad_fen: "Not a position: write it as W:W31,32,K5:B1,K46",
    status: {
      waiting: "Waiting for the start position", calibrating: "Finding the board",
      playing: "Playing", "looking-again": "Looking again", irregular: "Irregularity open",
      lost: "Lost track: the record stopped", over: "Game over",
    },
  },
  nl: {
    flip: "Bord omdraaien", connecting: "verbinden…", live: "live", offline: "opnieuw verbinden…",
    counters: "Damzetten (art. 17) en zevenzettenregel (art. 18)", white: "Wit", black: "Zwart",
    seven: "Zevenzetten", moves: "Zetten", announcements: "Meldingen",
    pdn_game: "PDN van deze partij", pdn_day: "PDN van vandaag", pdn_event: "PDN van het evenement", arbiter: "Arbiter", pin: "PIN",
    unlock: "Openen", controls_off: "De bediening staat uit (geen token ingesteld).",
    event: "Evenement", round: "Ronde", board_no: "Bord", save: "Opslaan",
    take_back: "Laatste zet terugnemen", resignation: "opgave", agreement: "remise overeengekomen",
    time: "tijd", arbiter_decision: "beslissing van de arbiter", declare: "Uitslag vastleggen",
    new_game: "Nieuwe partij", logout: "Sluiten", adjourn: "Afbreken", resume: "Hervatten",
    turn: "Wit en zwart verwisseld: de lezing draaien",
    no_adjourned: "geen afgebroken partij", camera: "Camerabeeld (om de camera te plaatsen)",
    refresh: "Vernieuwen", every_second: "elke seconde", left: "zetten over", wrong_pin: "Verkeerde PIN",
    done: "Gedaan", round_prefix: "ronde", board_prefix: "bord",
    locked_out: "Te vaak een verkeerde PIN: probeer het later opnieuw",
    setup: "Stelling opzetten", read_camera: "Van de camera lezen", half_turn: "Half omdraaien",
    to_move: "Aan zet", play_from: "Vanuit deze stelling spelen", reading: "Het bord wordt gelezen…",
    setup_hint: "Klik op een veld om het te veranderen: leeg, witte schijf, zwarte schijf, witte dam, zwarte dam.",
    pieces: { ".": "leeg", w: "witte schijf", b: "zwarte schijf", W: "witte dam", B: "zwarte dam" },
    may_be: "misschien", unsure_king: "de camera ziet daar geen verschil tussen dam en schijf",
    unsure_colour: "onzeker gelezen",
    corners: { "top-left": "linksboven", "top-right": "rechtsboven", "bottom-right": "rechtsonder",
               "bottom-left": "linksonder" },
    by: {
      calibration: "Veld 46 ligt {corner} in het beeld, zoals de companion het bord vond.",
      markers: "Veld 46 ligt {corner} in het beeld, zoals de markers tonen.",
      configuration: "Veld 46 ligt {corner} in het beeld, zoals ingesteld.",
      guess: "Welke kant wit is, was niet te zien: veld 46 is {corner} in het beeld genomen. Staan wit en zwart verkeerd om, draai het dan half om.",
      arbiter: "Veld 46 ligt {corner} in het beeld: de arbiter heeft de stelling half omgedraaid.",
    },
    fen_placeholder: "FEN (leeg: de beginstelling)",
    terminations: {
      "no pieces": "geen stukken meer", "no legal move": "geen zet meer",
      "one king against one king": "één dam tegen één dam", "seven-move rule": "zevenzettenregel",
      resignation: "opgave", time: "tijd", "draw agreed": "remise overeengekomen",
      "arbiter's decision": "beslissing van de arbiter", adjourned: "afgebroken",
    },
    bad_fen: "Geen stelling: schrijf haar als W:W31,32,K5:B1,K46",
    status: {
      waiting: "Wacht op de beginstelling", calibrating: "Bord zoeken",
      playing: "Partij bezig", "looking-again": "Kijkt opnieuw", irregular: "Onregelmatigheid open",
      lost: "Partij kwijt: de notatie is gestopt", over: "Partij afgelopen",
    },
  },
};

// The arbiter's set-up board: pieces by square ("w", "b", "W", "B"), the side to move, and the
// squares the camera's reading was unsure of; the FEN field follows it, and it the field.
const setup = { pieces: new Map(), turn: "W", unsure: new Map(), orientation: null, warnings: [] };
const CYCLE = [".", "w", "b", "W", "B"];
const SVG_NS = "http://www.w3.org/2000/svg";
const SQUARE = 40, MARGIN = 8;

const page = {
  lang: localStorage.getItem("lang") || null,
  side: localStorage.getItem("side") || "white",
  last: null,
  source: null,
  connection: "connecting",  // connecting, live or offline
  said: null,  // the arbiter's last message (say)
};

function $(id) { return document.getElementById(id); }
function words() { return WORDS[page.lang] || WORDS.en; }

function setText(id, text) { $(id).textContent = text; }

function translate() {
  const w = words();
  document.documentElement.lang = page.lang || "en";
  for (const el of document.querySelectorAll("[data-i18n]")) {
    const key = el.getAttribute("data-i18n");
    if (typeof w[key] === "string") el.textContent = w[key];
  }
  for (const el of document.querySelectorAll("[data-i18n-placeholder]")) {
    const key = el.getAttribute("data-i18n-placeholder");
    if (typeof w[key] === "string") el.placeholder = w[key];
  }
  const c = $("connection");
  c.className = page.connection === "live" ? "online" : "offline";
  c.textContent = w[page.connection];
}

function leds(id, lit, total, blinking) {
  const box = $(id);
  box.replaceChildren();
  for (let i = 0; i < total; i++) {
    const led = document.createElement("span");
    led.className = "led" + (i < lit ? " lit" : "") + (blinking ? " blink" : "");
    box.appendChild(led);
  }
}

function showMoves(moves) {
  const list = $("moves");
  list.replaceChildren();
  let item = null;
  for (const m of moves) {
    if (m.color === "white" || item === null) {
      item = document.createElement("li");
      item.value = m.number;
      const n = document.createElement("span");
      n.className = "number";
      n.textContent = m.color === "white" ? m.number + "." : m.number + "...";
      item.appendChild(n);
      list.appendChild(item);
    }
    const t = document.createElement("span");
    t.className = "move" + (m.irregular ? " irregular" : "");
    t.textContent = m.text;
    t.dataset.ply = m.ply;
    item.appendChild(t);
  }
  list.scrollTop = list.scrollHeight;
}

// Each announcement after the number of the move it came with ("22." White's, "22..." Black's):
// a reminder said again after the next move reads as such, not as a repeat.
function showAnnouncements(items, moves) {
  const list = $("announcements");
  list.replaceChildren();
  const numbers = new Map(moves.map((m) => [m.ply, m.number + (m.color === "white" ? "." : "...")]));
  for (const a of items.slice().reverse()) {
    const li = document.createElement("li");
    const text = a.text[page.lang] || a.text.en || "";
    if (numbers.has(a.ply)) {
      const n = document.createElement("span");
      n.className = "ply";
      n.textContent = numbers.get(a.ply);
      li.appendChild(n);
      li.appendChild(document.createTextNode(" "));
    }
    if (a.article) {
      const art = document.createElement("span");
      art.className = "article";
      art.textContent = a.article;
      li.appendChild(art);
      li.appendChild(document.createTextNode(" "));
    }
    li.appendChild(document.createTextNode(text));
    list.appendChild(li);
  }
}

function show(message) {
  if (!message || !message.state) return;
  page.last = message;
  const s = message.state;
  if (!page.lang) page.lang = s.language === "nl" ? "nl" : "en";
  translate();
  const w = words();
  const tags = s.game.tags || {};
  setText("white-name", tags.White || "?");
  setText("black-name", tags.Black || "?");
  setText("event", tags.Event || "");
  setText("round", tags.Round && tags.Round !== "-" ? w.round_prefix + " " + tags.Round : "");
  setText("board-no", tags.Board ? w.board_prefix + " " + tags.Board : "");
  $("board").innerHTML = message.boards[page.side];  // the server's SVG (numbers only)
  const status = $("status");
  status.textContent = w.status[s.status] || s.status;
  status.dataset.status = s.status;
  const why = s.game.termination ? w.terminations[s.game.termination] || s.game.termination : "";
  setText("result", s.game.result !== "*" ? s.game.result + (why ? " (" + why + ")" : "") : "");
  const c = s.counters;
  leds("leds-white", c.white ? c.white.count : 0, 3, c.white && c.white.blocked);
  leds("leds-black", c.black ? c.black.count : 0, 3, c.black && c.black.blocked);
  leds("leds-seven", c.seven_move_left === null ? 0 : c.seven_move_left, 7, false);
  setText("seven-text", c.seven_move_left === null ? "" : c.seven_move_left + " " + w.left);
  const pending = $("pending");
  pending.hidden = !s.pending;
  // (the rules' sentence names its article already; each language's text says it once)
  pending.textContent = s.pending ? (s.pending.text && s.pending.text[page.lang]) || s.pending.summary : "";
  showMoves(s.moves);
  showAnnouncements(s.announcements, s.moves);
  $("pdn-current").href = "/pdn/game/" + s.game.id + ".pdn?download=1";
  $("pdn-event").href = "/pdn/event/" + encodeURIComponent(tags.Event || "") + ".pdn?download=1";
  // a field the arbiter is typing in, or has changed and not saved, keeps what was typed
  for (const [id, name] of [["tag-white", "White"], ["tag-black", "Black"], ["tag-event", "Event"],
                            ["tag-round", "Round"], ["tag-board", "Board"]]) {
    const input = $(id);
    if (document.activeElement !== input && !input.dataset.dirty) input.value = tags[name] || "";
  }
}

// -- the set-up board -------------------------------------------------------------------------

function squareCell(sq) {  // row and column as White sees the board (square 1 top, second column)
  const r = Math.floor((sq - 1) / 5);
  const c = 2 * ((sq - 1) % 5) + (r % 2 === 0 ? 1 : 0);
  return page.side === "black" ? [9 - r, 9 - c] : [r, c];
}

function svgEl(name, attrs) {
  const el = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  return el;
}

function setupFen() {
  const side = (colour) => [...setup.pieces.entries()]
    .filter(([, p]) => p.toLowerCase() === colour)
    .sort((a, b) => a[0] - b[0])
    .map(([sq, p]) => (p === p.toUpperCase() ? "K" : "") + sq).join(",");
  return setup.turn + ":W" + side("w") + ":B" + side("b");
}

// A PDN FEN (W:W31,32,K5:B1-3,K46) as pieces and side to move; null when it is not one.
function parseFen(text) {
  const fields = text.trim().replace(/\.$/, "").split(":").map((f) => f.trim());
  if (fields.length < 3 || !/^[WB]$/i.test(fields[0])) return null;
  const pieces = new Map();
  for (const field of fields.slice(1)) {
    const colour = field.charAt(0).toUpperCase();
    if (colour !== "W" && colour !== "B") continue;  // (counter fields: the server reads them)
    const body = field.slice(1).trim();
    if (!body) continue;
    for (const token of body.split(",")) {
      const m = /^(K?)(\d{1,2})(?:-(\d{1,2}))?'*$/i.exec(token.trim());
      if (!m) return null;
      const from = parseInt(m[2], 10), to = m[3] ? parseInt(m[3], 10) : from;
      if (from < 1 || to > 50 || from > to) return null;
      for (let sq = from; sq <= to; sq++) {
        pieces.set(sq, m[1] ? colour : colour.toLowerCase());
      }
    }
  }
  return { turn: fields[0].toUpperCase(), pieces };
}

// The next in the cycle empty, white man, black man, white king, black king, passing over a man
// on its far row (Art. 8: it would have been crowned).
function nextPiece(sq, now) {
  let i = CYCLE.indexOf(now || ".");
  for (;;) {
    i = (i + 1) % CYCLE.length;
    const p = CYCLE[i];
    if (p === "w" && sq <= 5) continue;
    if (p === "b" && sq >= 46) continue;
    return p;
  }
}

function drawSetup() {
  const full = 2 * MARGIN + 10 * SQUARE;
  const svg = svgEl("svg", { viewBox: "0 0 " + full + " " + full, class: "board", role: "img",
                             "aria-label": "set-up board", "data-side": page.side });
  svg.appendChild(svgEl("rect", { x: 0, y: 0, width: full, height: full, fill: "#5b3a1a" }));
  svg.appendChild(svgEl("rect", { x: MARGIN, y: MARGIN, width: 10 * SQUARE, height: 10 * SQUARE, fill: "#f0d9b5" }));
  for (let sq = 1; sq <= 50; sq++) {
    const [r, c] = squareCell(sq);
    const x = MARGIN + c * SQUARE, y = MARGIN + r * SQUARE;
    svg.appendChild(svgEl("rect", { class: "square", "data-square": sq, x, y, width: SQUARE, height: SQUARE, fill: "#8b5a2b" }));
    const number = svgEl("text", { x: x + 2, y: y + 9, "font-size": 8, "font-family": "sans-serif", fill: "#f5e6c8" });
    number.textContent = String(sq);
    svg.appendChild(number);
    const p = setup.pieces.get(sq);
    if (p) {
      const king = p === p.toUpperCase();
      const white = p.toLowerCase() === "w";
      const g = svgEl("g", { class: "piece " + (white ? "white" : "black") + " " + (king ? "king" : "man"), "data-square": sq });
      const cx = x + SQUARE / 2, cy = y + SQUARE / 2 + (king ? 4 : 2);
      const disc = (yy) => svgEl("ellipse", { cx, cy: yy, rx: SQUARE * 0.4, ry: SQUARE * 0.3,
                                              fill: white ? "#fbfbf4" : "#1e1e1e", stroke: white ? "#555" : "#000", "stroke-width": 1.5 });
      g.appendChild(disc(cy));
      if (king) {
        g.appendChild(disc(cy - 7));
        const t = cy - 7, w = SQUARE * 0.22;
        const points = [[cx - w, t + 3], [cx - w, t - 5], [cx - w / 2, t - 1], [cx, t - 7],
                        [cx + w / 2, t - 1], [cx + w, t - 5], [cx + w, t + 3]].map((q) => q.join(",")).join(" ");
        g.appendChild(svgEl("polygon", { class: "crown", points, fill: "#d4a017", stroke: "#6b4f00", "stroke-width": 1 }));
      }
      svg.appendChild(g);
    }
    if (setup.unsure.has(sq)) {
      svg.appendChild(svgEl("rect", { class: "unsure-mark", "data-square": sq, x: x + 1.5, y: y + 1.5,
                                      width: SQUARE - 3, height: SQUARE - 3 }));
    }
  }
  $("setup-board").replaceChildren(svg);
}

function showSetup(keepFen) {
  const w = words();
  drawSetup();
  $("setup-turn").value = setup.turn;
  if (!keepFen) {
    $("setup-fen").value = setupFen();
    $("setup-fen").classList.remove("invalid");
  }
  const list = $("setup-unsure");
  list.replaceChildren();
  for (const [sq, u] of [...setup.unsure.entries()].sort((a, b) => a[0] - b[0])) {
    const li = document.createElement("li");
    li.dataset.square = sq;
    li.textContent = sq + ": " + w.pieces[u.read] + ", " + w.may_be + " " + w.pieces[u.alternative]
      + " (" + (u.why === "king" ? w.unsure_king : w.unsure_colour) + ")";
    list.appendChild(li);
  }
  const o = setup.orientation;
  const by = o && (o.turned ? "arbiter" : o.by);
  setText("setup-orientation", o ? w.by[by].replace("{corner}", w.corners[o.corner_46] || o.corner_46) : "");
  const notes = $("setup-warnings");
  notes.replaceChildren();
  for (const warning of setup.warnings) {  // said in each language by the server, by its code
    const li = document.createElement("li");
    li.dataset.code = warning.code;
    li.textContent = warning.text[page.lang] || warning.text.en;
    notes.appendChild(li);
  }
}

function loadSetup(fen) {
  const parsed = parseFen(fen);
  if (!parsed) return false;
  setup.pieces = parsed.pieces;
  setup.turn = parsed.turn;
  return true;
}

async function readPosition() {
  say(every("reading"), true);
  const r = await fetch("/api/read-position", {
    method: "POST", credentials: "same-origin",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ turn: $("setup-turn").value === "B" ? "black" : "white" }),
  });
  let answer = {};
  try { answer = await r.json(); } catch (e) { answer = { error: r.statusText }; }
  if (!r.ok) {
    say(refusal(answer, r), false);
    if (r.status === 401) whoami();
    return;
  }
  const got = answer.answer;
  loadSetup(got.fen);
  setup.unsure = new Map(got.unsure.map((u) => [u.square, u]));
  setup.orientation = { ...got.orientation, turned: false };
  setup.warnings = got.warnings;
  showSetup(false);
  say(every("done"), true);
}

function wireSetup() {
  $("read-position").addEventListener("click", readPosition);
  $("setup-board").addEventListener("click", (e) => {
    const square = e.target.closest("[data-square]");
    if (!square) return;
    const sq = parseInt(square.getAttribute("data-square"), 10);
    const next = nextPiece(sq, setup.pieces.get(sq));
    if (next === ".") setup.pieces.delete(sq); else setup.pieces.set(sq, next);
    setup.unsure.delete(sq);  // the arbiter has looked at it
    showSetup(false);
  });
  $("setup-turn").addEventListener("change", () => {
    setup.turn = $("setup-turn").value;
    showSetup(false);
  });
  $("setup-half-turn").addEventListener("click", () => {
    const turned = (m) => new Map([...m.entries()].map(([sq, v]) => [51 - sq, v]));
    // a man now on its far row cannot stand there: the arbiter sees it in the FEN's answer
    setup.pieces = turned(setup.pieces);
    setup.unsure = new Map([...turned(setup.unsure).entries()].map(([sq, u]) => [sq, { ...u, square: sq }]));
    if (setup.orientation) {
      const corners = ["top-left", "top-right", "bottom-right", "bottom-left"];
      const at = corners.indexOf(setup.orientation.corner_46);
      // said as the arbiter's doing; turned back, as read again
      setup.orientation = { ...setup.orientation, corner_46: corners[(at + 2) % 4],
                            turned: !setup.orientation.turned };
    }
    showSetup(false);
  });
  $("setup-fen").addEventListener("input", () => {
    const ok = loadSetup($("setup-fen").value);
    $("setup-fen").classList.toggle("invalid", !ok);
    if (ok) showSetup(true);
  });
  $("setup-form").addEventListener("submit", (e) => {
    e.preventDefault();
    if (!loadSetup($("setup-fen").value)) { say(every("bad_fen"), false); return; }
    command("/api/new-game", { fen: setupFen() });
  });
  $("setup").addEventListener("toggle", () => { if ($("setup").open) showSetup(false); });
}

function connect() {
  if (page.source) page.source.close();
  const source = new EventSource("/api/events");
  page.source = source;
  source.onopen = () => {
    page.connection = "live";
    translate();
  };
  source.onmessage = (e) => {
    try { show(JSON.parse(e.data)); } catch (err) { console.error(err); }
  };
  source.onerror = () => {
    page.connection = "offline";
    translate();
    // EventSource tries again by itself; one it gave up on is made anew
    if (source.readyState === EventSource.CLOSED) setTimeout(connect, 2000);
  };
}

async function adjourned() {
  const r = await fetch("/api/adjourned");
  const games = r.ok ? await r.json() : [];
  const select = $("resume-game");
  select.replaceChildren();
  for (const g of games) {
    const option = document.createElement("option");
    option.value = g.id;
    option.textContent = "#" + g.id + " " + g.white + " – " + g.black + " (" + g.moves + ")";
    select.appendChild(option);
  }
  if (!games.length) {
    const option = document.createElement("option");
    option.value = "";
    option.textContent = words().no_adjourned;
    select.appendChild(option);
  }
  $("resume").disabled = !games.length;
}

async function whoami() {
  const r = await fetch("/api/whoami", { credentials: "same-origin" });
  const me = await r.json();
  $("controls-off").hidden = me.controls;
  $("login").hidden = !me.controls || me.arbiter;
  $("controls").hidden = !me.arbiter;
  if (me.arbiter) adjourned();
}

// What the arbiter is told: a sentence per language, as a page's word (every(key)) or a refusal
// (the server's error answer: its text in each language by its code, device/phrases.py); said
// again in the other language when the page's changes.
function say(text, ok) {
  page.said = { text, ok };
  const m = $("message");
  m.textContent = typeof text === "string" ? text : text[page.lang] || text.en || "";
  m.className = ok ? "ok" : "error";
}

function every(key, after) {
  const out = {};
  for (const [lang, w] of Object.entries(WORDS)) out[lang] = w[key] + (after || "");
  return out;
}

function refusal(answer, r) { return answer.text || answer.error || r.statusText; }

async function command(path, body) {
  const r = await fetch(path, {
    method: "POST", credentials: "same-origin",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body || {}),
  });
  let answer = {};
  try { answer = await r.json(); } catch (e) { answer = { error: r.statusText }; }
  if (r.ok) say(every("done"), true); else say(refusal(answer, r), false);
  if (r.status === 401) whoami();
  return r.ok;
}

function wire() {
  $("flip").addEventListener("click", () => {
    page.side = page.side === "white" ? "black" : "white";
    localStorage.setItem("side", page.side);
    if (page.last) show(page.last);
    showSetup(true);
  });
  for (const lang of ["en", "nl"]) {
    $("lang-" + lang).addEventListener("click", () => {
      page.lang = lang;
      localStorage.setItem("lang", lang);
      translate();
      if (page.last) show(page.last);
      showSetup(true);
      if (page.said) say(page.said.text, page.said.ok);
      if ($("camera").open && !$("controls").hidden) still();  // its banner in the language
    });
  }
  $("login").addEventListener("submit", async (e) => {
    e.preventDefault();
    const r = await fetch("/api/login", {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ token: $("pin").value }),
    });
    $("pin").value = "";
    if (r.status === 429) {
      const wait = r.headers.get("Retry-After");
      say(every("locked_out", wait ? " (" + wait + " s)" : ""), false);
    } else if (!r.ok) say(every("wrong_pin"), false); else say("", true);
    whoami();
  });
  $("logout").addEventListener("click", async () => {
    await fetch("/api/logout", { method: "POST", credentials: "same-origin" });
    whoami();
  });
  const tagsForm = $("tags-form");
  tagsForm.addEventListener("input", (e) => { e.target.dataset.dirty = "1"; });
  tagsForm.addEventListener("submit", async (e) => {
    e.preventDefault();
    const tags = {};
    const inputs = tagsForm.querySelectorAll("input");
    for (const input of inputs) tags[input.name] = input.value;
    if (await command("/api/tags", { tags })) {
      for (const input of inputs) delete input.dataset.dirty;
    }
  });
  $("take-back").addEventListener("click", () => command("/api/take-back"));
  $("turn").addEventListener("click", () => command("/api/turn"));
  $("adjourn").addEventListener("click", async () => { await command("/api/adjourn"); adjourned(); });
  $("resume").addEventListener("click", async () => {
    const game = parseInt($("resume-game").value, 10);
    if (game) { await command("/api/resume", { game }); adjourned(); }
  });
  $("declare-form").addEventListener("submit", (e) => {
    e.preventDefault();
    command("/api/declare", { result: $("declare-result").value, reason: $("declare-reason").value });
  });
  const still = () => { $("camera-still").src = "/camera.jpg?lang=" + (page.lang || "en") + "&t=" + Date.now(); };
  $("camera-refresh").addEventListener("click", still);
  $("camera").addEventListener("toggle", () => { if ($("camera").open) still(); });
  setInterval(() => { if ($("camera").open && $("camera-auto").checked && !$("controls").hidden) still(); }, 1000);
  $("new-game-form").addEventListener("submit", (e) => {
    e.preventDefault();
    command("/api/new-game", { fen: $("new-fen").value.trim() });
  });
  wireSetup();
}

document.addEventListener("DOMContentLoaded", () => {
  // /?screen: the club's television, the game only (no arbiter's section)
  if (new URLSearchParams(location.search).has("screen")) document.body.classList.add("screen");
  translate();
  wire();
  whoami();
  connect();
});

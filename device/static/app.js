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
    status: {
      waiting: "Waiting for the start position", calibrating: "Finding the board",
      playing: "Playing", "looking-again": "Looking again", irregular: "Irregularity open",
      over: "Game over",
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
    status: {
      waiting: "Wacht op de beginstelling", calibrating: "Bord zoeken",
      playing: "Partij bezig", "looking-again": "Kijkt opnieuw", irregular: "Onregelmatigheid open",
      over: "Partij afgelopen",
    },
  },
};

const page = {
  lang: localStorage.getItem("lang") || null,
  side: localStorage.getItem("side") || "white",
  last: null,
  source: null,
  connection: "connecting",  // connecting, live or offline
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

function showAnnouncements(items) {
  const list = $("announcements");
  list.replaceChildren();
  for (const a of items.slice().reverse()) {
    const li = document.createElement("li");
    const text = a.text[page.lang] || a.text.en || "";
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
  setText("result", s.game.result !== "*" ? s.game.result + (s.game.termination ? " (" + s.game.termination + ")" : "") : "");
  const c = s.counters;
  leds("leds-white", c.white ? c.white.count : 0, 3, c.white && c.white.blocked);
  leds("leds-black", c.black ? c.black.count : 0, 3, c.black && c.black.blocked);
  leds("leds-seven", c.seven_move_left === null ? 0 : c.seven_move_left, 7, false);
  setText("seven-text", c.seven_move_left === null ? "" : c.seven_move_left + " " + w.left);
  const pending = $("pending");
  pending.hidden = !s.pending;
  pending.textContent = s.pending ? (s.pending.article ? s.pending.article + ": " : "") + s.pending.summary : "";
  showMoves(s.moves);
  showAnnouncements(s.announcements);
  $("pdn-current").href = "/pdn/game/" + s.game.id + ".pdn?download=1";
  $("pdn-event").href = "/pdn/event/" + encodeURIComponent(tags.Event || "") + ".pdn?download=1";
  // a field the arbiter is typing in, or has changed and not saved, keeps what was typed
  for (const [id, name] of [["tag-white", "White"], ["tag-black", "Black"], ["tag-event", "Event"],
                            ["tag-round", "Round"], ["tag-board", "Board"]]) {
    const input = $(id);
    if (document.activeElement !== input && !input.dataset.dirty) input.value = tags[name] || "";
  }
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

function say(text, ok) {
  const m = $("message");
  m.textContent = text;
  m.className = ok ? "ok" : "error";
}

async function command(path, body) {
  const r = await fetch(path, {
    method: "POST", credentials: "same-origin",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body || {}),
  });
  let answer = {};
  try { answer = await r.json(); } catch (e) { answer = { error: r.statusText }; }
  if (r.ok) say(words().done, true); else say(answer.error || r.statusText, false);
  if (r.status === 401) whoami();
  return r.ok;
}

function wire() {
  $("flip").addEventListener("click", () => {
    page.side = page.side === "white" ? "black" : "white";
    localStorage.setItem("side", page.side);
    if (page.last) show(page.last);
  });
  for (const lang of ["en", "nl"]) {
    $("lang-" + lang).addEventListener("click", () => {
      page.lang = lang;
      localStorage.setItem("lang", lang);
      translate();
      if (page.last) show(page.last);
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
      say(words().locked_out + (wait ? " (" + wait + " s)" : ""), false);
    } else if (!r.ok) say(words().wrong_pin, false); else say("", true);
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
  const still = () => { $("camera-still").src = "/camera.jpg?t=" + Date.now(); };
  $("camera-refresh").addEventListener("click", still);
  $("camera").addEventListener("toggle", () => { if ($("camera").open) still(); });
  setInterval(() => { if ($("camera").open && $("camera-auto").checked && !$("controls").hidden) still(); }, 1000);
  $("new-game-form").addEventListener("submit", (e) => {
    e.preventDefault();
    command("/api/new-game", { fen: $("new-fen").value.trim() });
  });
}

document.addEventListener("DOMContentLoaded", () => {
  // /?screen: the club's television, the game only (no arbiter's section)
  if (new URLSearchParams(location.search).has("screen")) document.body.classList.add("screen");
  translate();
  wire();
  whoami();
  connect();
});

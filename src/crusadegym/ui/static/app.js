// crusadegym serve: the page keeps the game (game, options, seed, seats, actions) in its
// address and in localStorage; the server is stateless and replays it on every request.
"use strict";

const $ = (id) => document.getElementById(id);
const STORE = "crusadegym.play";
const STORE_REPLAY = "crusadegym.replay";
let meta = { games: [], agents: [], replays: [], defaults: {} };
let current = null; // {game, options, seed, seats, actions} of the game on screen
let watching = null; // {replay, step, total}
let timer = null;
let busy = false;

function showError(msg) {
  const box = $("error");
  box.textContent = msg;
  box.hidden = !msg;
}

async function api(path, body) {
  const init = body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  };
  let resp;
  try {
    resp = await fetch(path, init);
  } catch (e) {
    throw new Error("the server does not answer (is crusadegym serve still running?)");
  }
  let data;
  try { data = await resp.json(); } catch (e) { throw new Error(`bad answer (${resp.status})`); }
  if (!resp.ok) throw new Error(data.error || `error ${resp.status}`);
  return data;
}

// -- the address: #mode=play&game=..&seed=..&seats=a,b&options={json}&actions=1.2.3 ---------
function playHash(g) {
  const p = new URLSearchParams({
    mode: "play", game: g.game, seed: String(g.seed), seats: g.seats.join(","),
    options: JSON.stringify(g.options), actions: g.actions.join("."),
  });
  return "#" + p.toString();
}

function parseHash() {
  const p = new URLSearchParams(location.hash.slice(1));
  if (p.get("mode") === "watch") return { mode: "watch", replay: p.get("replay"), step: p.get("step") };
  if (p.get("mode") !== "play") return null;
  let options = {};
  try { options = JSON.parse(p.get("options") || "{}"); } catch (e) { options = null; }
  const acts = (p.get("actions") || "").split(".").filter((x) => x !== "");
  return {
    mode: "play", game: p.get("game"), seed: Number(p.get("seed") || 0),
    seats: (p.get("seats") || `human,${opponent()}`).split(","), options,
    actions: acts.map((x) => (/^\d+$/.test(x) ? Number(x) : x)),
  };
}

function remember(g) {
  current = { game: g.game, options: g.options, seed: g.seed, seats: g.seats, actions: g.actions };
  localStorage.setItem(STORE, JSON.stringify(current));
  history.replaceState(null, "", playHash(current));
  $("permalink").href = playHash(current);
}

// -- settings form ------------------------------------------------------------------------
// The other seats' default is the agent `crusadegym play` sets against you (its --vs).
function opponent() {
  return (meta.defaults && meta.defaults.opponent) || "heuristic";
}

function parseOptions(text) {
  const out = {};
  for (const part of text.split(",").map((s) => s.trim()).filter(Boolean)) {
    const [k, ...rest] = part.split("=");
    if (!k || rest.length === 0) throw new Error(`bad option "${part}": write key=value, key=value`);
    const v = rest.join("=").trim();
    out[k.trim()] = /^-?\d+$/.test(v) ? Number(v) : /^-?\d*\.\d+$/.test(v) ? Number(v)
      : v === "true" ? true : v === "false" ? false : v;
  }
  return out;
}

function formatOptions(options) {
  return Object.entries(options || {}).map(([k, v]) => `${k}=${v}`).join(", ");
}

function drawSeats(specs) {
  const n = Math.max(1, Number($("players").value) || 2);
  const box = $("seats");
  const old = [...box.querySelectorAll("input")].map((i) => i.value);
  box.innerHTML = "";
  for (let s = 0; s < n; s++) {
    const label = document.createElement("label");
    label.className = "seat";
    label.textContent = `Seat ${s} `;
    const input = document.createElement("input");
    input.id = `seat-${s}`;
    input.setAttribute("list", "agent-names");
    input.value = (specs && specs[s]) || old[s] || (s === 0 ? "human" : opponent());
    label.appendChild(input);
    box.appendChild(label);
  }
}

function settingsGame() {
  const n = Math.max(1, Number($("players").value) || 2);
  const seats = [];
  for (let s = 0; s < n; s++) seats.push($(`seat-${s}`).value.trim() || opponent());
  return {
    game: $("game").value, options: parseOptions($("options").value),
    seed: Number($("seed").value) || 0, seats, actions: [],
  };
}

function fillSettings(g) {
  $("game").value = g.game;
  $("players").value = g.seats.length;
  drawSeats(g.seats);
  $("seed").value = g.seed;
  $("options").value = formatOptions(g.options);
}

// -- showing a position -------------------------------------------------------------------
function resultText(v) {
  if (!v.over) return "";
  const r = v.returns.map((x, s) => `seat ${s}: ${x > 0 ? "+" : ""}${x}`).join(", ");
  return `Game over, ${v.ending}: ${r}`;
}

// A move reads as a sentence with its visible outcome; the raw action is its tooltip.
function fillHistory(list, items) {
  list.innerHTML = "";
  for (const h of items) {
    const li = document.createElement("li");
    li.textContent = h.text || `seat ${h.seat} plays ${h.label}`;
    li.title = h.action === undefined ? h.label : `action ${h.action}: ${h.label}`;
    if (h.action !== undefined) li.dataset.action = h.action;
    list.appendChild(li);
  }
  list.scrollTop = list.scrollHeight;
}

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

// The board picture; games with small map labels (board_scale) are drawn larger.
function showPicture(img, empty, v) {
  img.onload = () => {
    img.style.width = v.board_scale && v.board_scale !== 1
      ? `${Math.round(img.naturalWidth * v.board_scale)}px` : "";
  };
  img.src = v.board_png;
  img.hidden = false;
  empty.hidden = true;
}

// A "#rrggbb" fill light enough that a mark on it must be dark to be read.
function isLight(fill) {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(fill.slice(i, i + 2), 16));
  return 0.299 * r + 0.587 * g + 0.114 * b > 160;
}

// Every mark of the picture explained (v.legend), then the text board's legend.
function fillLegend(box, v) {
  box.innerHTML = "";
  box.appendChild(el("h2", "", "Legend"));
  if (v.legend && v.legend.length) {
    const ul = el("ul");
    for (const item of v.legend) {
      const li = el("li");
      const sw = el("span", "swatch", item.mark || "");
      if (item.fill) sw.style.background = item.fill;
      if (!item.fill || isLight(item.fill)) sw.classList.add("plain");
      if (item.ring) sw.style.borderColor = item.ring;
      li.appendChild(sw);
      li.appendChild(el("span", "", item.text));
      ul.appendChild(li);
    }
    box.appendChild(ul);
  }
  if (v.legend_text) {
    const d = el("details");
    if (!v.legend || !v.legend.length) d.open = true;
    d.appendChild(el("summary", "", "the text board's legend"));
    d.appendChild(el("pre", "", v.legend_text));
    box.appendChild(d);
  }
  box.hidden = false;
}

// Deus: the players' table as text (gold, VP, resources, played cards, the hand with
// each card's cost and effect).
function fillPanel(box, v) {
  box.innerHTML = "";
  box.hidden = !(v.panel && v.panel.length);
  for (const part of v.panel || []) {
    const sec = el("section");
    if (part.colour) sec.style.borderLeftColor = part.colour;
    sec.appendChild(el("h3", "", part.title));
    for (const line of part.lines) sec.appendChild(el("p", "", line));
    if (part.cards.length) {
      sec.appendChild(el("p", "", "hand:"));
      for (const c of part.cards) sec.appendChild(el("p", "card", c));
    }
    box.appendChild(sec);
  }
}

const HIDDEN_NOTE = "Hidden information: you see only your own seat's view (rivals' " +
  "hands and secret choices stay hidden); replays and finished games show everything.";

function showPlay(v) {
  showPicture($("board"), $("board-empty"), v);
  if (!$("board-text").hidden) $("board").hidden = true;
  $("board-text").textContent = v.board_text;
  $("note").textContent = HIDDEN_NOTE;
  $("note").hidden = !(v.hidden_information && !v.over);
  fillLegend($("legend"), v);
  fillPanel($("panel"), v);
  const status = $("status");
  status.classList.toggle("over", v.over);
  if (v.over) status.textContent = resultText(v);
  else if (v.human_to_move) {
    status.textContent = `Your move (seat ${v.to_move}): click ${v.clickable ? "the board or " : ""}an action, or type it`;
  }
  else status.textContent = `Seat ${v.to_move} to move${v.agents_pending ? " (the agents are playing)" : ""}`;
  const legal = $("legal");
  legal.innerHTML = "";
  for (const a of v.legal) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "action";
    b.id = `act-${a.id}`;
    b.dataset.id = a.id;
    b.textContent = a.label;
    if (a.detail) {
      b.title = a.detail;
      b.appendChild(el("span", "detail", a.detail));
    }
    b.addEventListener("click", () => send({ move: a.id }));
    legal.appendChild(b);
  }
  $("typed").hidden = !v.human_to_move;
  fillHistory($("history"), v.history);
  $("status").dataset.step = v.step;
}

// The server lets agent seats think a bounded time per request; when they have more to
// play (agents_pending) the page asks again with the actions so far, until a human is to
// move or the game is over.
function continueAgents(v) {
  if (v && v.agents_pending) setTimeout(() => send({}), 20);
}

async function send(extra) {
  if (!current || busy) return;
  busy = true;
  let v = null;
  try {
    v = await api("/api/play", { ...current, ...extra });
    showError("");
    remember({ ...current, actions: v.actions });
    showPlay(v);
  } catch (e) {
    showError(e.message); // the game on the page is unchanged
  } finally {
    busy = false;
  }
  continueAgents(v);
}

async function startGame(g) {
  if (busy) return;
  busy = true;
  let v = null;
  try {
    v = await api("/api/play", g);
    showError("");
    remember({ ...g, actions: v.actions });
    showPlay(v);
  } catch (e) {
    showError(e.message);
  } finally {
    busy = false;
  }
  continueAgents(v);
}

// -- watching a replay --------------------------------------------------------------------
async function showStep(step) {
  if (!watching) return;
  step = Math.max(0, Math.min(step, watching.total ?? step));
  try {
    const v = await api("/api/replay", { replay: watching.replay, step });
    showError("");
    watching.step = v.step;
    watching.total = v.total;
    showPicture($("watch-board"), $("watch-board-empty"), v);
    fillLegend($("watch-legend"), v);
    fillPanel($("watch-panel-info"), v);
    $("slider").max = v.total;
    $("slider").value = v.step;
    $("step-label").textContent = `step ${v.step} / ${v.total}`;
    $("watch-status").textContent = v.over ? resultText(v) : `${v.game}: seat ${v.to_move} to move`;
    fillHistory($("watch-history"), v.history);
    const name = watching.replay.name || "@local";
    history.replaceState(null, "", "#" + new URLSearchParams({ mode: "watch", replay: name, step: v.step }));
  } catch (e) {
    stopAutoplay();
    showError(e.message);
  }
}

function stopAutoplay() {
  if (timer) clearInterval(timer);
  timer = null;
  $("autoplay").textContent = "Play";
}

function watchReplay(replay, step) {
  stopAutoplay();
  watching = { replay, step: 0, total: undefined };
  showStep(step || 0);
}

// -- tabs and start-up --------------------------------------------------------------------
function openTab(name) {
  $("play-panel").hidden = name !== "play";
  $("watch-panel").hidden = name !== "watch";
  $("tab-play").classList.toggle("active", name === "play");
  $("tab-watch").classList.toggle("active", name === "watch");
}

function wire() {
  $("tab-play").addEventListener("click", () => {
    openTab("play");
    if (current) history.replaceState(null, "", playHash(current));
  });
  $("tab-watch").addEventListener("click", () => openTab("watch"));
  $("players").addEventListener("change", () => drawSeats());
  $("game").addEventListener("change", () => {
    const g = meta.games.find((x) => x.name === $("game").value);
    if (g) $("players").max = g.max_players;
  });
  $("new-game").addEventListener("submit", (ev) => {
    ev.preventDefault();
    let g;
    try { g = settingsGame(); } catch (e) { showError(e.message); return; }
    startGame(g);
  });
  $("typed").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const text = $("move-text").value;
    send({ text }).then(() => { if (!$("error").textContent) $("move-text").value = ""; });
  });
  $("undo").addEventListener("click", () => send({ undo: true }));
  $("board").addEventListener("click", (ev) => {
    const img = $("board");
    const x = Math.floor((ev.offsetX * img.naturalWidth) / img.clientWidth);
    const y = Math.floor((ev.offsetY * img.naturalHeight) / img.clientHeight);
    send({ click: [x, y] });
  });
  $("toggle-text").addEventListener("click", () => {
    if (!current || !$("board").getAttribute("src")) return; // no board before a game
    $("board-text").hidden = !$("board-text").hidden;
    $("board").hidden = !$("board-text").hidden;
  });
  $("replay-list").addEventListener("change", () => {
    if ($("replay-list").value) watchReplay({ name: $("replay-list").value }, 0);
  });
  $("replay-file").addEventListener("change", async () => {
    const file = $("replay-file").files[0];
    if (!file) return;
    const text = await file.text();
    localStorage.setItem(STORE_REPLAY, text);
    watchReplay(text, 0);
  });
  $("first").addEventListener("click", () => showStep(0));
  $("prev").addEventListener("click", () => watching && showStep(watching.step - 1));
  $("next").addEventListener("click", () => watching && showStep(watching.step + 1));
  $("last").addEventListener("click", () => watching && showStep(watching.total ?? 0));
  $("slider").addEventListener("change", () => showStep(Number($("slider").value)));
  $("autoplay").addEventListener("click", () => {
    if (timer) { stopAutoplay(); return; }
    if (!watching) return;
    $("autoplay").textContent = "Pause";
    timer = setInterval(() => {
      if (watching.step >= watching.total) stopAutoplay();
      else showStep(watching.step + 1);
    }, 600);
  });
}

async function init() {
  wire();
  try {
    meta = await api("/api/meta");
  } catch (e) {
    showError(e.message);
    return;
  }
  for (const g of meta.games) {
    const o = document.createElement("option");
    o.value = g.name;
    o.textContent = g.name;
    $("game").appendChild(o);
  }
  for (const a of meta.agents) {
    const o = document.createElement("option");
    o.value = a;
    $("agent-names").appendChild(o);
  }
  for (const r of meta.replays) {
    const o = document.createElement("option");
    o.value = r;
    o.textContent = r;
    $("replay-list").appendChild(o);
  }
  if (meta.defaults && meta.defaults.game) {
    $("game").value = meta.defaults.game;
    const g = meta.games.find((x) => x.name === meta.defaults.game);
    if (g) $("players").max = g.max_players;
  }
  drawSeats();
  const h = parseHash();
  if (h && h.mode === "watch") {
    openTab("watch");
    if (h.replay === "@local" && localStorage.getItem(STORE_REPLAY)) {
      watchReplay(localStorage.getItem(STORE_REPLAY), Number(h.step) || 0);
    } else if (h.replay && h.replay !== "@local") {
      $("replay-list").value = h.replay;
      watchReplay({ name: h.replay }, Number(h.step) || 0);
    }
    return;
  }
  let saved = h;
  if (!saved) {
    try { saved = JSON.parse(localStorage.getItem(STORE) || "null"); } catch (e) { saved = null; }
  }
  if (saved && saved.game) {
    if (saved.options === null) { showError("the link's options are not valid JSON"); return; }
    fillSettings(saved);
    current = saved;
    startGame(saved); // replays the saved actions: a reload continues the game
  }
}

init();

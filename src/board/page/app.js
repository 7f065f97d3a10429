// Fivefold Board page: draws the state from GET /api/state and sends actions as JSON.
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const CELL = 40;
const $ = (id) => document.getElementById(id);
let state = null;
let drawnKey = "";
let polledAt = 0;
let formFilled = false;

async function call(path, body) {
  const init = body === undefined ? {} : {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  };
  const res = await fetch(path, init);
  const data = await res.json().catch(() => ({ error: "bad reply from server" }));
  if (!res.ok) throw new Error(data.error || res.statusText);
  return data;
}

async function act(name, body = {}) {
  try {
    show(await call("/api/" + name, body));
    $("error").textContent = "";
  } catch (e) {
    $("error").textContent = e.message;
  }
}

async function poll() {
  try {
    show(await call("/api/state"));
  } catch (e) {
    $("error").textContent = "server unreachable: " + e.message;
  }
  setTimeout(poll, 250);
}

function show(s) {
  state = s;
  polledAt = performance.now();
  if (!formFilled) fillForm(s);
  const key = JSON.stringify([s.gen, s.thinking, s.analysis, s.hint, $("numbers").checked, $("show-pv").checked]);
  if (key !== drawnKey) {
    drawnKey = key;
    drawBoard(s);
    drawPanel(s);
    drawLevels(s);
    record(s);
  }
  drawClocks();
}

function el(tag, attrs, parent, text) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  parent.appendChild(e);
  return e;
}

// Margin from the board edge to the first line: room for coordinates outside the stones.
const EDGE = CELL * 1.25;
const at = (i) => EDGE + CELL * i;
const colName = (x) => String.fromCharCode(97 + x);

function drawBoard(s) {
  const svg = $("board");
  const n = s.size, span = 2 * EDGE + CELL * (n - 1);
  svg.setAttribute("viewBox", `0 0 ${span} ${span}`);
  svg.replaceChildren();
  drawGrid(svg, n);
  const numbers = $("numbers").checked;
  s.moves.forEach(([x, y], i) => drawStone(svg, x, y, i % 2 === 0 ? "black" : "white", numbers ? i + 1 : null, 1));
  if (s.moves.length) {
    const [x, y] = s.moves[s.moves.length - 1];
    const mark = numbers ? { r: CELL * 0.45, fill: "none", stroke: "#e0301e", "stroke-width": 3 } : { r: 5, fill: "#e0301e" };
    el("circle", { cx: at(x), cy: at(y), class: "last", ...mark }, svg);
  }
  for (const [x, y] of s.forbidden) drawCross(svg, x, y);
  if (s.result && s.result.line.length) drawWinLine(svg, s.result.line);
  if (s.hint) el("circle", { cx: at(s.hint[0]), cy: at(s.hint[1]), r: 15, fill: "none", stroke: "#1a8f3a", "stroke-width": 4, "stroke-dasharray": "6 4", class: "hint" }, svg);
  if ($("show-pv").checked && s.analysis && !s.result && s.analysis.side === s.side) drawPv(svg, s);
  for (let y = 0; y < n; y++)
    for (let x = 0; x < n; x++)
      el("rect", { x: at(x) - CELL / 2, y: at(y) - CELL / 2, width: CELL, height: CELL, class: "pt", "data-x": x, "data-y": y }, svg);
}

function drawGrid(svg, n) {
  const lo = at(0), hi = at(n - 1);
  for (let i = 0; i < n; i++) {
    el("line", { x1: lo, y1: at(i), x2: hi, y2: at(i), stroke: "#5a3f12", "stroke-width": 1.2 }, svg);
    el("line", { x1: at(i), y1: lo, x2: at(i), y2: hi, stroke: "#5a3f12", "stroke-width": 1.2 }, svg);
    el("text", { x: at(i), y: CELL * 0.45, "text-anchor": "middle", "font-size": 14, fill: "#4a3510" }, svg, colName(i));
    el("text", { x: CELL * 0.4, y: at(i) + 5, "text-anchor": "middle", "font-size": 14, fill: "#4a3510" }, svg, String(i + 1));
  }
  const c = Math.floor(n / 2), d = n >= 13 ? 3 : 2;
  const stars = n >= 9 ? [[c, c], [d, d], [n - 1 - d, d], [d, n - 1 - d], [n - 1 - d, n - 1 - d]] : [[c, c]];
  for (const [x, y] of stars) el("circle", { cx: at(x), cy: at(y), r: 4, fill: "#5a3f12" }, svg);
}

function drawStone(svg, x, y, color, label, opacity) {
  const black = color === "black";
  el("circle", { cx: at(x), cy: at(y), r: CELL * 0.45, fill: black ? "#151515" : "#fbfbfb", stroke: "#000", "stroke-width": 1, opacity, class: "stone-" + color }, svg);
  if (label !== null) el("text", { x: at(x), y: at(y) + 5, "text-anchor": "middle", "font-size": 14, fill: black ? "#fff" : "#000", opacity }, svg, String(label));
}

function drawCross(svg, x, y) {
  const r = 7;
  for (const [dx, dy] of [[r, r], [r, -r]])
    el("line", { x1: at(x) - dx, y1: at(y) - dy, x2: at(x) + dx, y2: at(y) + dy, stroke: "#c00", "stroke-width": 3, class: "forbidden" }, svg);
}

function drawWinLine(svg, line) {
  const [a, b] = [line[0], line[line.length - 1]];
  el("line", { x1: at(a[0]), y1: at(a[1]), x2: at(b[0]), y2: at(b[1]), stroke: "#e0301e", "stroke-width": 6, "stroke-linecap": "round", opacity: 0.8, class: "win" }, svg);
}

function drawPv(svg, s) {
  const taken = new Set(s.moves.map(([x, y]) => x + "," + y));
  let color = s.analysis.side;
  s.analysis.pv.slice(0, 8).forEach(([x, y], i) => {
    if (!taken.has(x + "," + y) && x < s.size && y < s.size) drawStone(svg, x, y, color, i + 1, 0.35);
    taken.add(x + "," + y);
    color = color === "black" ? "white" : "black";
  });
}

function drawPanel(s) {
  const side = (c) => s.seats[c === "black" ? 0 : 1];
  $("seat-black").querySelector(".name").textContent = s.seats[0].name;
  $("seat-white").querySelector(".name").textContent = s.seats[1].name;
  $("seat-black").classList.toggle("to-move", !s.result && s.side === "black");
  $("seat-white").classList.toggle("to-move", !s.result && s.side === "white");
  let status;
  if (s.result) status = s.result.reason;
  else if (s.paused) status = "Paused";
  else if (s.thinking && side(s.side).spec !== "human") status = `${cap(s.side)} (${side(s.side).name}) is thinking…`;
  else if (s.thinking) status = "Looking for a hint…";
  else status = `${cap(s.side)} to move (${side(s.side).name})`;
  $("status").textContent = status;
  $("pause").textContent = s.paused ? "Resume" : "Pause";
  $("position").value = s.position;
  const a = s.analysis || {};
  $("an-engine").textContent = a.engine ? `${a.engine} (${a.side}${a.hint ? ", hint" : ""})` : "-";
  $("an-depth").textContent = a.depth || "-";
  $("an-score").textContent = a.score || "-";
  $("an-nodes").textContent = a.nodes || "-";
  $("an-nps").textContent = a.nps ? `${a.nps} nodes/s` : "-";
  $("an-pv").textContent = a.pv && a.pv.length ? a.pv.map(([x, y]) => colName(x) + (y + 1)).join(" ") : (a.text || "-");
}

const cap = (w) => w[0].toUpperCase() + w.slice(1);

function drawClocks() {
  if (!state) return;
  const c = state.clock;
  ["black", "white"].forEach((color, i) => {
    let text = "";
    if (c.match_ms > 0) {
      let left = c.left[i];
      if (c.running && state.side === color) left -= performance.now() - polledAt;
      text = clockText(Math.max(0, left));
    }
    $("seat-" + color).querySelector(".clock").textContent = text;
  });
}

function clockText(ms) {
  const s = Math.ceil(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function fillForm(s) {
  formFilled = true;
  const size = $("size");
  for (const n of [15, 20, ...Array.from({ length: 18 }, (_, i) => i + 5).filter((n) => n !== 15 && n !== 20)])
    size.add(new Option(`${n}×${n}`, n));
  size.value = s.size;
  $("rule").value = s.rule;
  for (const [i, sel] of [$("black"), $("white")].entries()) {
    sel.add(new Option("Human", "human"));
    for (const e of s.engines) {
      if (e.levels.length) for (const l of e.levels) sel.add(new Option(`${e.name} ${l.level} – ${l.name} (${eloText(l)})`, `engine:${e.id}:${l.level}`));
      else sel.add(new Option(e.name, `engine:${e.id}:0`));
    }
    sel.value = s.seats[i].spec;
  }
  for (const suite of s.suites) $("suite").add(new Option(`${suite.name} (${suite.count})`, suite.name));
  $("turn").value = s.clock.turn_ms / 1000;
  $("match").value = s.clock.match_ms / 60000;
}

// Level 10 is full strength: its Elo was measured with a node limit standing in for it.
function eloText(l) {
  return `Elo ${l.level === 10 ? "≥ " : ""}${l.elo} ± ${l.elo_error}`;
}

// The built-in engine's levels with their Elo, and the person's results at each (server).
function drawLevels(s) {
  const body = $("levels-table").tBodies[0];
  body.replaceChildren();
  const builtin = s.engines.find((e) => e.levels.length);
  if (!builtin) return;
  const playing = s.seats.map((x) => x.spec);
  for (const l of builtin.levels) {
    const r = (s.results.levels || {})[l.level] || { won: 0, lost: 0, drawn: 0 };
    const row = body.insertRow();
    if (playing.includes(`engine:${builtin.id}:${l.level}`)) row.className = "current";
    const elo = eloText(l).replace("Elo ", "");
    for (const v of [`${l.level} ${l.name}`, elo, r.won, r.lost, r.drawn]) row.insertCell().textContent = v;
  }
}

function newGame(ev) {
  ev.preventDefault();
  const body = {
    size: Number($("size").value),
    rule: $("rule").value,
    black: $("black").value,
    white: $("white").value,
    turn_ms: Math.round(Number($("turn").value) * 1000),
    match_ms: Math.round(Number($("match").value) * 60000),
    adapt: $("adapt").checked,
  };
  const pos = $("start-position").value.trim();
  if (pos) body.position = pos;
  else if ($("suite").value) {
    body.suite = $("suite").value;
    if ($("suite-index").value) body.index = Number($("suite-index").value) - 1;
  }
  act("new", body).then(() => {
    if (state) { $("black").value = state.seats[0].spec; $("white").value = state.seats[1].spec; }
  });
}

function clickBoard(ev) {
  const t = ev.target;
  if (!t.classList || !t.classList.contains("pt")) return;
  act("move", { x: Number(t.dataset.x), y: Number(t.dataset.y) });
}

async function save() {
  try {
    const res = await fetch("/api/psq");
    const text = await res.text();
    $("psq-text").value = text;
    const a = document.createElement("a");
    a.href = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
    a.download = "fivefold.psq";
    a.click();
    URL.revokeObjectURL(a.href);
  } catch (e) {
    $("error").textContent = "save failed: " + e.message;
  }
}

function loadFile() {
  const file = $("psq-file").files[0];
  if (!file) return;
  if (file.size > 60000) { $("error").textContent = "that file is too big for a .psq"; return; }
  file.text().then((text) => { $("psq-text").value = text; act("load", { psq: text }); });
}

// Results of games between one person and one engine, kept in this browser.
function record(s) {
  if (!s.result) return;
  const humans = s.seats.filter((x) => x.spec === "human").length;
  if (humans !== 1) return;
  const id = s.position + "|" + s.result.reason;
  if (localStorage.getItem("fivefold-last") === id) return;
  localStorage.setItem("fivefold-last", id);
  const me = s.seats[0].spec === "human" ? "black" : "white";
  const opp = s.seats[me === "black" ? 1 : 0].name;
  const rec = readRecord();
  const r = rec[opp] || { w: 0, l: 0, d: 0 };
  if (!s.result.winner) r.d++; else if (s.result.winner === me) r.w++; else r.l++;
  rec[opp] = r;
  localStorage.setItem("fivefold-record", JSON.stringify(rec));
  drawRecord();
}

function readRecord() {
  try { return JSON.parse(localStorage.getItem("fivefold-record")) || {}; } catch { return {}; }
}

function drawRecord() {
  const body = $("record-table").tBodies[0];
  body.replaceChildren();
  for (const [name, r] of Object.entries(readRecord()).sort()) {
    const row = body.insertRow();
    for (const v of [name, r.w, r.l, r.d]) row.insertCell().textContent = v;
  }
}

$("board").addEventListener("click", clickBoard);
$("new-form").addEventListener("submit", newGame);
$("undo").addEventListener("click", () => act("undo"));
$("redo").addEventListener("click", () => act("redo"));
$("swap").addEventListener("click", () => act("swap"));
$("hint").addEventListener("click", () => act("hint"));
$("pause").addEventListener("click", () => act("pause", { paused: !(state && state.paused) }));
$("save").addEventListener("click", save);
$("psq-file").addEventListener("change", loadFile);
$("load-psq").addEventListener("click", () => act("load", { psq: $("psq-text").value }));
$("load-position").addEventListener("click", () => act("load", { position: $("position").value }));
$("clear-record").addEventListener("click", () => { localStorage.removeItem("fivefold-record"); drawRecord(); });
for (const id of ["numbers", "show-pv"]) $(id).addEventListener("change", () => state && show(state));
for (const id of ["black", "white"]) $(id).addEventListener("change", () => act("seats", { black: $("black").value, white: $("white").value }));
setInterval(drawClocks, 200);
drawRecord();
poll();

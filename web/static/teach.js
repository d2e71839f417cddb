// A game's own board taught from the PIN holder's phone (web/board_teach.py):
// while the table is set up for a game that has one (index.html's #board-teach names them), the board is cut out of the camera's picture,
// the companion's proposed board file drawn over it, and the family corrects it by tapping:
// choose a space, then tap where it is on their board (or mark it Start, Finish or dead
// end, join its end to a slot's edge, add a space after it, remove it or its whole track);
// choose a slot, then tap where its middle is, or say which panel lies in it at home and
// add a piece to that panel; add a whole new track, its spaces tapped in order. Every change
// can be undone, a tap at a time. Save checks the file as the board tool does and teaches
// the box with it. A refused check highlights what is wrong. Never on the screen beside
// the table (the page does not load this script there). Shown in words: "Track 2, space 5",
// "Slot 3", "Purple panel, piece 1"; the board's ids stay in its file. Uses the shell's
// `t`, `h`, `s`, `pin`, `LANG`, `view` and `refusal`.
"use strict";

const TAP_PX = 22;  // a tap this near a space or an edge (screen pixels) chooses it, however small drawn
const UNDO_MOST = 200;  // changes kept to undo
let board = null;  // the board file being marked: its tracks, slots and panels
let proposedEnds = {};  // each track's (by id) and piece's (by its first space) ends as proposed
let mode = "spaces";  // what a tap changes: "spaces", "slots" (and panels) or "build" (a new chain)
let chosen = null;  // the space chosen: {track, index} or {colour, piece, index} (indices in the file)
let slot = null;  // the slot chosen (its id), in "slots" mode
let building = null;  // the new chain being tapped: {colour (null: a track), spaces: [[x, y], …]}
let adding = false;  // the next tap places a new space after the chosen one
let joining = false;  // the next tap chooses the slot's edge the chosen space's end joins
let undos = [];  // the states before each change, the last first undone
let marked = [];  // the spaces, tracks and slots a refused check names
let boardUrl = null;

// Every chain of the board: its tracks (board mm) and its panels' pieces (in the panel's
// own frame, the panel at home upright: `origin` is its slot's top left). `entry` is the
// track or piece as the file has it (its ends `from` and `to`, its `spaces`).
function chains() {
  const out = board.tracks.map((entry, track) => ({ key: { track }, entry, spaces: entry.spaces, origin: [0, 0] }));
  for (const [colour, panel] of Object.entries(board.panels)) {
    const origin = board.slots.at[panel.home];
    panel.pieces.forEach((entry, piece) => out.push({ key: { colour, piece }, entry, spaces: entry.spaces, origin }));
  }
  return out;
}

function sameChain(a, b) {
  return a.track === b.track && a.colour === b.colour && a.piece === b.piece;
}

function chosenChain() {
  return chains().find((chain) => sameChain(chain.key, chosen));
}

function where(chain, space) {
  return [chain.origin[0] + space[1], chain.origin[1] + space[2]];
}

function radius() {
  return Math.max(board.size[0], board.size[1]) / 70;
}

function round1(value) {
  return Math.round(value * 10) / 10;
}

function spaceKind(chain, index) {
  const last = chain.spaces.length - 1;
  if (index === 0 && chain.entry.from === "start") return "start";
  if (index === last && chain.entry.to === "finish") return "finish";
  return "";
}

function isChosen(chain, index) {
  return chosen !== null && sameChain(chain.key, chosen) && chosen.index === index;
}

// The end of its chain a space is at ("from" or "to"), null for a space between.
function endOf(chain, index) {
  const last = chain.spaces.length - 1;
  if (index === 0) return "from";
  return index === last ? "to" : null;
}

// Where a chain's end joins a slot's edge (board mm), null for Start, Finish, a dead end
// or an edge the file does not have.
function portPoint(chain, end) {
  const value = chain.entry[end];
  if (chain.key.track === undefined) {
    const port = board.ports[value];
    return port ? [chain.origin[0] + port[0], chain.origin[1] + port[1]] : null;
  }
  const [slotId, name] = String(value).split(".");
  const at = board.slots.at[slotId];
  const port = board.ports[name];
  return at && port ? [at[0] + port[0], at[1] + port[1]] : null;
}

function panelName(colour) {
  const names = { purple: t("board_panel_purple"), cyan: t("board_panel_cyan"), orange: t("board_panel_orange") };
  return names[colour] || colour;
}

// The slots in reading order (top row first, each row from the left): "Slot 1" is the
// first, whatever the file calls it.
function slotsInOrder() {
  const rowMm = board.slots.size[1] / 2;
  return Object.entries(board.slots.at)
    .sort(([, a], [, b]) => (Math.abs(a[1] - b[1]) > rowMm ? a[1] - b[1] : a[0] - b[0]))
    .map(([id]) => id);
}

function slotName(id) {
  return t("board_slot", { number: slotsInOrder().indexOf(id) + 1 });
}

function chainName(key) {
  if (key.track !== undefined) return t("board_track", { number: key.track + 1 });
  return t("board_piece", { panel: panelName(key.colour), number: key.piece + 1 });
}

function homeOf(slotId) {
  return Object.keys(board.panels).find((colour) => board.panels[colour].home === slotId) || null;
}

function drawBoard() {
  const svg = document.getElementById("board-drawing");
  const [width, height] = board.size;
  const r = radius();
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  const parts = [];
  const labels = [];  // the slots' numbers, over the spaces
  const [slotW, slotH] = board.slots.size;
  slotsInOrder().forEach((id, number) => {
    const [x, y] = board.slots.at[id];
    const classes = ["board-slot", id === slot && mode === "slots" ? "chosen" : "", marked.includes(id) ? "marked" : ""];
    parts.push(s("rect", { x, y, width: slotW, height: slotH, class: classes.join(" ") }));
    if (mode === "slots") {
      labels.push(s("text", { x: x + slotW / 2, y: y + slotH / 2, "font-size": slotH / 4, class: "board-slot-name" }, String(number + 1)));
    }
    if (mode === "slots" || joining) {
      for (const [px, py] of Object.values(board.ports)) parts.push(s("circle", { cx: x + px, cy: y + py, r: r * 0.7, class: "board-port" }));
    }
  });
  for (const chain of chains()) {
    const points = chain.spaces.map((space) => where(chain, space).join(",")).join(" ");
    const bad = chain.key.track !== undefined && marked.includes(chain.entry.id);
    parts.push(s("polyline", { points, class: bad ? "board-line marked" : "board-line" }));
    const numbered = chosen !== null && sameChain(chain.key, chosen);
    chain.spaces.forEach((space, index) => {
      const [x, y] = where(chain, space);
      const classes = ["board-space", spaceKind(chain, index), isChosen(chain, index) ? "chosen" : ""];
      if (marked.includes(space[0])) parts.push(s("circle", { cx: x, cy: y, r: r * 1.7, class: "board-marked" }));
      parts.push(s("circle", { cx: x, cy: y, r, class: classes.join(" ") }));
      if (numbered) parts.push(s("text", { x: x + r * 1.1, y: y - r * 0.6, "font-size": r * 2.4, class: "board-name" }, String(index + 1)));
    });
    for (const [end, index] of [["from", 0], ["to", chain.spaces.length - 1]]) {
      const [x, y] = where(chain, chain.spaces[index]);
      const port = portPoint(chain, end);
      if (port) parts.push(s("line", { x1: x, y1: y, x2: port[0], y2: port[1], class: "board-join" }));
      if (chain.entry[end] !== "dead end") continue;
      parts.push(s("rect", { x: x - r * 1.3, y: y - r * 1.3, width: r * 2.6, height: r * 0.6, class: "board-dead-end" }));
    }
  }
  if (building) {
    const origin = building.colour ? board.slots.at[board.panels[building.colour].home] : [0, 0];
    const points = building.spaces.map(([x, y]) => [origin[0] + x, origin[1] + y]);
    parts.push(s("polyline", { points: points.map((p) => p.join(",")).join(" "), class: "board-line building" }));
    points.forEach(([x, y], index) => {
      parts.push(s("circle", { cx: x, cy: y, r, class: "board-space building" }));
      parts.push(s("text", { x: x + r * 1.1, y: y - r * 0.6, "font-size": r * 2.4, class: "board-name" }, String(index + 1)));
    });
  }
  svg.replaceChildren(...parts, ...labels);
  document.getElementById("board-chosen").textContent = stateLine();
  for (const button of document.querySelectorAll("#board-modes [data-mode]")) {
    button.setAttribute("aria-pressed", String(button.dataset.mode === mode));
  }
  document.getElementById("board-new-track").setAttribute("aria-pressed", String(mode === "build" && !building.colour));
  document.getElementById("board-undo").disabled = undos.length === 0;
  document.getElementById("board-marks").hidden = mode !== "spaces";
  document.getElementById("board-slot-tools").hidden = mode !== "slots";
  document.getElementById("board-slot-size").hidden = mode !== "slots";
  document.getElementById("board-build").hidden = mode !== "build";
  for (const button of document.querySelectorAll("#board-marks button")) {
    button.disabled = chosen === null && button.id !== "board-done";
  }
  for (const button of document.querySelectorAll("#board-slot-tools button")) {
    button.disabled = slot === null || (button.id === "board-add-piece" && homeOf(slot) === null);
  }
}

// What the line under the drawing says: what is chosen and what a tap does now.
function stateLine() {
  if (mode === "build") {
    const count = building.spaces.length;
    if (building.colour) return t("board_building_piece", { panel: panelName(building.colour), count });
    return t("board_building_track", { number: board.tracks.length + 1, count });
  }
  if (mode === "slots") {
    if (slot === null) return t("board_slot_pick");
    const colour = homeOf(slot);
    return t("board_slot_chosen", { slot: slotName(slot), holds: colour ? panelName(colour) : t("board_slot_empty") });
  }
  if (joining) return t("board_joining");
  if (adding) return t("board_adding");
  if (chosen === null) return t("board_pick");
  return t("board_chosen", { number: chosen.index + 1, chain: chainName(chosen) });
}

// Said after drawing, in place of the state line: a tap refused (nothing changed) or done.
function boardSay(key, params = {}) {
  document.getElementById("board-chosen").textContent = t(key, params);
}

// The state a change is made to, kept so that Undo puts it back.
function remember() {
  undos.push(JSON.stringify({ board, mode, chosen, slot, building }));
  if (undos.length > UNDO_MOST) undos.shift();
}

function undo() {
  const last = undos.pop();
  if (last === undefined) return;
  ({ board, mode, chosen, slot, building } = JSON.parse(last));
  adding = false;
  joining = false;
  showSlotSize();
  drawBoard();
}

function setMode(wanted) {
  if (mode === "build" && building.spaces.length > 0) remember();  // a track left half-tapped: Undo brings it back
  mode = wanted;
  building = null;
  adding = false;
  joining = false;
  showSlotSize();
  drawBoard();
}

// The slots' size as the file has it, to the millimetre a ruler reads, in the fields that
// change it (a proposed board's slots are fitted to hundredths no one measures).
function showSlotSize() {
  document.getElementById("board-slot-width").value = Math.round(board.slots.size[0]);
  document.getElementById("board-slot-height").value = Math.round(board.slots.size[1]);
}

// A tap on the drawing: what it does depends on the mode and what is chosen.
function tapBoard(event) {
  const svg = document.getElementById("board-drawing");
  const point = new DOMPoint(event.clientX, event.clientY).matrixTransform(svg.getScreenCTM().inverse());
  const here = [round1(point.x), round1(point.y)];
  const fingerMm = TAP_PX / svg.getScreenCTM().a;
  if (mode === "build") return placeBuilt(here);
  if (mode === "slots") return tapSlot(here);
  if (joining) return joinAt(here, fingerMm);
  if (adding && chosen !== null) {
    const chain = chosenChain();
    remember();
    const space = [newId(chain.spaces[chosen.index][0]), round1(here[0] - chain.origin[0]), round1(here[1] - chain.origin[1])];
    chain.spaces.splice(chosen.index + 1, 0, space);
    chosen = { ...chain.key, index: chosen.index + 1 };
    adding = false;
    drawBoard();
    return;
  }
  // none chosen: the nearest space within a finger's reach; one chosen: a tap on another
  // space's circle chooses that one, anywhere else (its own circle too: a nudge) moves the
  // chosen one there (Done chooses none)
  const reach = chosen === null ? Math.max(radius() * 1.6, fingerMm) : radius() * 1.2;
  let near = null;
  let best = reach;
  for (const chain of chains()) {
    chain.spaces.forEach((space, index) => {
      const [x, y] = where(chain, space);
      const d = Math.hypot(x - point.x, y - point.y);
      if (d < best) { best = d; near = { ...chain.key, index }; }
    });
  }
  if (near !== null && !(chosen !== null && sameChain(near, chosen) && near.index === chosen.index)) {
    chosen = near;
  } else if (chosen !== null) {
    const chain = chosenChain();
    const space = chain.spaces[chosen.index];
    remember();
    space[1] = round1(here[0] - chain.origin[0]);
    space[2] = round1(here[1] - chain.origin[1]);
  }
  drawBoard();
}

// The ids no space has yet, `count` of them: `stem` and the first free numbers.
function freshIds(stem, count) {
  const used = new Set(chains().flatMap((chain) => chain.spaces.map((space) => space[0])));
  const ids = [];
  for (let n = 1; ids.length < count; n += 1) if (!used.has(`${stem}${n}`)) ids.push(`${stem}${n}`);
  return ids;
}

// A new space's name: the chosen one's letters and the first number no space has.
function newId(after) {
  return freshIds(after.replace(/\d+$/, ""), 1)[0];
}

// Start, Finish, dead end or the proposed end, at the chosen space's end of its chain.
function markEnd(mark) {
  const chain = chosenChain();
  const { index } = chosen;
  const entry = chain.entry;
  const piece = chain.key.track === undefined;
  if (piece && (mark === "start" || mark === "finish")) return boardSay("board_panel_end");
  const last = chain.spaces.length - 1;
  let end;
  let value;
  if (mark === "start") {
    if (index !== 0) return boardSay("board_start_first");
    [end, value] = ["from", "start"];
  } else if (mark === "finish") {
    if (index !== last) return boardSay("board_finish_last");
    [end, value] = ["to", "finish"];
  } else {
    end = endOf(chain, index);
    if (end === null) return boardSay("board_not_end");
    const proposal = proposedEnds[piece ? entry.spaces[0][0] : entry.id];
    value = mark === "proposed" ? (proposal ? proposal[end] : entry[end]) : "dead end";
    const other = entry[end === "from" ? "to" : "from"];
    if (piece && value === "dead end" && other === "dead end") return boardSay("board_piece_one_edge");
  }
  remember();
  entry[end] = value;
  drawBoard();
}

// "Joins a slot's edge": the next tap on the drawing chooses the edge.
function startJoining() {
  if (endOf(chosenChain(), chosen.index) === null) return boardSay("board_not_end");
  joining = true;
  adding = false;
  drawBoard();
}

// The chosen space's end joined to the slot's edge (port) nearest the tap: any slot's for a
// track, its own panel's for a piece. Refused, nothing changed, when no edge is near or
// another track (or another piece of the panel) joins that edge already.
function joinAt(here, fingerMm) {
  const chain = chosenChain();
  const piece = chain.key.track === undefined;
  const end = endOf(chain, chosen.index);
  const slots = piece ? [[null, chain.origin]] : Object.entries(board.slots.at);
  let best = Math.max(Math.min(...board.slots.size) * 0.2, fingerMm);
  let value = null;
  for (const [slotId, at] of slots) {
    for (const [name, [px, py]] of Object.entries(board.ports)) {
      const d = Math.hypot(at[0] + px - here[0], at[1] + py - here[1]);
      if (d < best) { best = d; value = piece ? name : `${slotId}.${name}`; }
    }
  }
  if (value === null) {
    drawBoard();
    return boardSay("board_no_port");
  }
  const others = piece ? board.panels[chain.key.colour].pieces : board.tracks;
  const taken = others.some((entry) => ["from", "to"].some((e) => entry[e] === value && !(entry === chain.entry && e === end)));
  if (taken) {
    drawBoard();
    return boardSay("board_port_used");
  }
  remember();
  chain.entry[end] = value;
  joining = false;
  drawBoard();
}

// The chosen space removed: a track keeps two spaces, as a new one has (its order shows),
// a piece one.
function removeSpace() {
  const chain = chosenChain();
  if (chain.spaces.length <= (chain.key.track === undefined ? 1 : 2)) return boardSay("board_last_space");
  remember();
  chain.spaces.splice(chosen.index, 1);
  chosen = null;
  drawBoard();
}

// The chosen space's track or piece listed the other way round (a track tapped from its
// Finish end): its spaces and its ends swapped. A Start stays a track's first space and a
// Finish its last, so a track with either is refused, nothing changed.
function reverseChain() {
  const { key, entry } = chosenChain();
  if ([entry.from, entry.to].some((end) => end === "start" || end === "finish")) return boardSay("board_reverse_marked");
  remember();
  entry.spaces.reverse();
  [entry.from, entry.to] = [entry.to, entry.from];
  chosen = { ...key, index: entry.spaces.length - 1 - chosen.index };
  drawBoard();
}

// The chosen space's whole track or piece removed: a board keeps a track, a panel a piece.
function removeChain() {
  const chain = chosenChain();
  if (chain.key.track !== undefined) {
    if (board.tracks.length === 1) return boardSay("board_only_track");
    remember();
    board.tracks.splice(chain.key.track, 1);
  } else {
    const pieces = board.panels[chain.key.colour].pieces;
    if (pieces.length === 1) return boardSay("board_only_piece");
    remember();
    pieces.splice(chain.key.piece, 1);
  }
  chosen = null;
  drawBoard();
}

// --- slots and panels -------------------------------------------------------------------

function slotAt(here) {
  const [w, h] = board.slots.size;
  const inside = ([id, [x, y]]) => here[0] >= x && here[0] <= x + w && here[1] >= y && here[1] <= y + h;
  const found = Object.entries(board.slots.at).find(inside);
  return found ? found[0] : null;
}

// A tap in "slots" mode: on another slot it chooses that one; anywhere else (the chosen
// slot too: a nudge) the chosen slot's middle moves there, its panel's pieces with it.
// Refused, nothing changed, where the slot would lie off the board or over another.
function tapSlot(here) {
  const under = slotAt(here);
  if (under !== null && under !== slot) {
    slot = under;
    return drawBoard();
  }
  if (slot === null) return drawBoard();
  const [w, h] = board.slots.size;
  const at = [round1(here[0] - w / 2), round1(here[1] - h / 2)];
  drawBoard();
  if (at[0] < 0 || at[1] < 0 || at[0] + w > board.size[0] || at[1] + h > board.size[1]) {
    return boardSay("board_slot_outside");
  }
  const covers = Object.entries(board.slots.at).some(([id, [x, y]]) => id !== slot
    && Math.min(at[0], x) + w - Math.max(at[0], x) > 1 && Math.min(at[1], y) + h - Math.max(at[1], y) > 1);
  if (covers) return boardSay("board_slot_overlap");
  remember();
  board.slots.at[slot] = at;
  drawBoard();
}

// Every slot made the size given (mm), each about its middle; the slots' edges (ports) and
// the panels' pieces, drawn in a slot's own frame, stretched with them. Refused, nothing
// changed, for a size that is none or puts a slot off the board or over another.
function resizeSlots() {
  const size = ["board-slot-width", "board-slot-height"].map((id, i) => {
    const value = Number(document.getElementById(id).value);
    return value === Math.round(board.slots.size[i]) ? board.slots.size[i] : value;  // left as shown
  });
  if (!size.every((v) => Number.isFinite(v) && v > 0)) return boardSay("board_slot_no_size");
  const [w, h] = board.slots.size;
  const [sx, sy] = [size[0] / w, size[1] / h];
  const at = Object.fromEntries(Object.entries(board.slots.at).map(([id, [x, y]]) =>
    [id, [round1(x + (w - size[0]) / 2), round1(y + (h - size[1]) / 2)]]));
  const boxes = Object.values(at);
  if (boxes.some(([x, y]) => x < 0 || y < 0 || x + size[0] > board.size[0] || y + size[1] > board.size[1])) {
    return boardSay("board_slot_outside");
  }
  const overlap = (a, b) => Math.min(a[0], b[0]) + size[0] - Math.max(a[0], b[0]) > 1
    && Math.min(a[1], b[1]) + size[1] - Math.max(a[1], b[1]) > 1;
  if (boxes.some((a, i) => boxes.some((b, j) => i < j && overlap(a, b)))) return boardSay("board_slot_overlap");
  remember();
  board.slots = { size, at };
  for (const [name, [x, y]] of Object.entries(board.ports)) board.ports[name] = [round1(x * sx), round1(y * sy)];
  for (const panel of Object.values(board.panels)) {
    for (const piece of panel.pieces) for (const space of piece.spaces) [space[1], space[2]] = [round1(space[1] * sx), round1(space[2] * sy)];
  }
  drawBoard();
}

// Which panel lies in the chosen slot at home (null: none): the panel that lay there goes
// where the chosen panel came from, so each slot still holds at most one.
function setHome(colour) {
  const before = homeOf(slot);
  if (before === colour) return;
  remember();
  if (colour === null) {
    const empty = Object.keys(board.slots.at).find((id) => homeOf(id) === null);
    board.panels[before].home = empty;
  } else {
    const from = board.panels[colour].home;
    if (before !== null) board.panels[before].home = from;
    board.panels[colour].home = slot;
  }
  drawBoard();
}

// --- a new track or piece, its spaces tapped in order -----------------------------------

function startBuilding(colour) {
  if (mode === "build" && building.spaces.length > 0) remember();
  mode = "build";
  building = { colour, spaces: [] };
  chosen = null;
  adding = false;
  joining = false;
  drawBoard();
}

function placeBuilt(here) {
  const origin = building.colour ? board.slots.at[board.panels[building.colour].home] : [0, 0];
  remember();
  building.spaces.push([round1(here[0] - origin[0]), round1(here[1] - origin[1])]);
  drawBoard();
}

// The slot edges (ports) of a panel no piece of it uses, nearest `at` first (panel mm).
function freePorts(colour, at) {
  const used = new Set(board.panels[colour].pieces.flatMap((piece) => [piece.from, piece.to]));
  return Object.entries(board.ports).filter(([name]) => !used.has(name))
    .sort(([, a], [, b]) => Math.hypot(a[0] - at[0], a[1] - at[1]) - Math.hypot(b[0] - at[0], b[1] - at[1]))
    .map(([name]) => name);
}

// The tapped spaces made a track (both ends dead ends, to be marked) or a piece of the
// panel (from the free edge nearest its first space; to the free edge nearest its last, if
// that one is near, else a dead end). A track has two spaces at least, so its order shows.
function finishBuilding() {
  const taps = building.spaces;
  if (building.colour === null) {
    if (taps.length < 2) return boardSay("board_track_short");
    const used = new Set(board.tracks.map((track) => track.id));
    const id = [..."ABCDEFGHIJKLMNOPQRSTUVWXYZ"].find((letter) => !used.has(letter)) || `T${board.tracks.length + 1}`;
    const ids = freshIds(id, taps.length);
    remember();
    board.tracks.push({ id, from: "dead end", to: "dead end", spaces: taps.map(([x, y], k) => [ids[k], x, y]) });
    proposedEnds[id] = { from: "dead end", to: "dead end" };
    chosen = { track: board.tracks.length - 1, index: 0 };
    [mode, building] = ["spaces", null];
    drawBoard();
    return boardSay("board_track_added", { number: board.tracks.length });
  }
  const colour = building.colour;
  if (taps.length < 1) return boardSay("board_piece_short");
  const first = freePorts(colour, taps[0])[0];
  if (first === undefined) return boardSay("board_no_free_port");
  const lastNear = freePorts(colour, taps[taps.length - 1]).filter((name) => name !== first)
    .find((name) => { const [px, py] = board.ports[name]; const [x, y] = taps[taps.length - 1];
      return Math.hypot(px - x, py - y) < Math.min(...board.slots.size) / 4; });
  const pieces = board.panels[colour].pieces;
  const ids = freshIds(pieces[0].spaces[0][0].replace(/\d+$/, ""), taps.length);
  remember();
  pieces.push({ from: first, to: lastNear || "dead end", spaces: taps.map(([x, y], k) => [ids[k], x, y]) });
  chosen = { colour, piece: pieces.length - 1, index: 0 };
  [mode, building] = ["spaces", null];
  drawBoard();
  return boardSay("board_piece_added", { piece: chainName(chosen) });
}

// --- talking to the table ---------------------------------------------------------------

async function boardPost(path, body) {
  const game = encodeURIComponent(boardGame());
  const response = await fetch(`${path}?lang=${LANG}&game=${game}`, { method: "POST", body: JSON.stringify(body),
    headers: { "Content-Type": "application/json", "X-Table-Pin": pin } });
  return [response, await response.json()];
}

async function lookAtBoard() {
  const said = document.getElementById("board-said");
  said.textContent = t("board_looking");
  const size = ["board-width", "board-height"].map((id) => Number(document.getElementById(id).value));
  try {
    const [response, answer] = await boardPost("/api/setup/board", { size });
    if (!response.ok) {
      said.textContent = refusal(answer.error || {});
      return;
    }
    const picture = await fetch("/api/setup/board.jpg", { headers: { "X-Table-Pin": pin }, cache: "no-store" });
    if (!picture.ok) {
      said.textContent = refusal((await picture.json()).error || {});
      return;
    }
    if (boardUrl) URL.revokeObjectURL(boardUrl);
    boardUrl = URL.createObjectURL(await picture.blob());
    document.getElementById("board-picture").src = boardUrl;
    board = answer.board;
    proposedEnds = Object.fromEntries(chains().map((chain) => [
      chain.key.track === undefined ? chain.spaces[0][0] : chain.entry.id, { from: chain.entry.from, to: chain.entry.to }]));
    [mode, chosen, slot, building, adding, joining, undos, marked] = ["spaces", null, null, null, false, false, [], []];
    said.textContent = answer.said;
    document.getElementById("board-saved").textContent = "";
    document.getElementById("board-marking").hidden = false;
    showSlotSize();
    drawBoard();
  } catch {
    said.textContent = t("no_answer");
  }
}

async function saveBoard() {
  const line = document.getElementById("board-saved");
  line.textContent = "…";
  try {
    const [response, answer] = await boardPost("/api/setup/board/save", { board });
    const error = answer.error || {};
    marked = response.ok ? [] : (error.marks || []);
    line.textContent = response.ok ? answer.said : refusal(error);
    line.className = response.ok ? "ok" : "bad";
    drawBoard();
    // the server forgets what was learnt beside the board before: so do the other steps
    if (response.ok) document.dispatchEvent(new CustomEvent("board-saved"));
  } catch {
    line.textContent = t("no_answer");
  }
}

// A face of a die looked at (teach_pips.js's pip dice, teach_die.js's colour die): the
// camera's answer said on the line `saidId`, a refusal in words; once learnt its picture (the
// PIN's) fetched into `urls[face]`. The faces learnt so far, or null.
async function lookAtFace(path, body, pictureUrl, urls, face, saidId, looking) {
  const said = document.getElementById(saidId);
  said.textContent = looking;
  said.className = "";
  try {
    const [response, answer] = await boardPost(path, body);
    if (!response.ok) {
      said.textContent = refusal(answer.error || {});
      said.className = "bad";
      return null;
    }
    const game = encodeURIComponent(boardGame());
    const picture = await fetch(`${pictureUrl}?game=${game}`,
      { headers: { "X-Table-Pin": pin }, cache: "no-store" });
    if (picture.ok) {
      if (urls[face]) URL.revokeObjectURL(urls[face]);
      urls[face] = URL.createObjectURL(await picture.blob());
    }
    said.textContent = answer.said;
    return answer.learnt;
  } catch {
    said.textContent = t("no_answer");
    return null;
  }
}

// The faces learnt saved (`path`), what came of it said on the line `lineId`.
async function saveFaces(path, lineId) {
  const line = document.getElementById(lineId);
  line.textContent = "…";
  try {
    const [response, answer] = await boardPost(path, {});
    line.textContent = response.ok ? answer.said : refusal(answer.error || {});
    line.className = response.ok ? "ok" : "bad";
  } catch {
    line.textContent = t("no_answer");
  }
}

// `show` run now and whenever the game the table is set up for may have changed (the start
// form's choice, the PIN given, a table drawn anew, the setup opened): each step's showing.
function whenTheGameMayChange(show) {
  const choice = document.getElementById("game");
  if (choice) choice.addEventListener("change", show);
  document.addEventListener("pin-state", show);
  document.addEventListener("table-drawn", show);
  document.getElementById("setup-open").addEventListener("click", show);
  show();
}

// The game the table is set up for: between games the one chosen on the start form, else
// the game being played.
function boardGame() {
  const choice = document.getElementById("game");
  const between = !view || view.game === null || view.over;
  return between ? choice && choice.value : view.game;
}

// The step is shown while the table is set up for a game whose board is taught.
function showBoardStep() {
  const step = document.getElementById("board-teach");
  step.hidden = !pin || !step.dataset.games.split(" ").includes(boardGame());
}

function setupBoardStep() {
  const on = (id, act) => document.getElementById(id).addEventListener("click", act);
  on("board-look", lookAtBoard);
  on("board-save", saveBoard);
  on("board-drawing", tapBoard);
  for (const button of document.querySelectorAll("#board-modes [data-mode]")) {
    button.addEventListener("click", () => setMode(button.dataset.mode));
  }
  on("board-new-track", () => startBuilding(null));
  on("board-undo", undo);
  for (const button of document.querySelectorAll("#board-marks [data-mark]")) {
    button.addEventListener("click", () => markEnd(button.dataset.mark));
  }
  on("board-join", startJoining);
  on("board-add", () => { adding = true; joining = false; drawBoard(); });
  on("board-remove", removeSpace);
  on("board-remove-chain", removeChain);
  on("board-done", () => { chosen = null; adding = false; joining = false; drawBoard(); });
  for (const button of document.querySelectorAll("#board-slot-tools [data-home]")) {
    button.addEventListener("click", () => setHome(button.dataset.home || null));
  }
  on("board-add-piece", () => startBuilding(homeOf(slot)));
  on("board-slot-resize", resizeSlots);
  on("board-reverse", reverseChain);
  on("board-build-done", finishBuilding);
  on("board-build-cancel", () => setMode("spaces"));
  whenTheGameMayChange(showBoardStep);
}

document.addEventListener("DOMContentLoaded", setupBoardStep);

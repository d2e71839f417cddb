// A game's own board taught from the PIN holder's phone (web/board_teach.py):
// while the table is set up for a game that has one (index.html's #board-teach names them), the board is cut out of the camera's picture,
// the companion's proposed board file drawn over it, and the family corrects it by tapping:
// choose a space, then tap where it is on their board (or mark it Start, Finish or dead
// end, add a space after it, remove it); Save checks the file as the board tool does and
// teaches the box with it. A refused check highlights what is wrong. Never on the screen
// beside the table (the page does not load this script there). Uses the shell's `t`, `h`,
// `s`, `pin`, `LANG`, `view` and `refusal`.
"use strict";

const TAP_PX = 22;  // a tap this near a space (screen pixels) chooses it, however small drawn
let board = null;  // the board file being marked: its tracks, slots and panels
let proposedEnds = {};  // each track's ends as proposed: "End as proposed" puts them back
let chosen = null;  // {chain, index}: the space chosen
let adding = false;  // the next tap places a new space after the chosen one
let marked = [];  // the spaces and tracks a refused check names
let boardUrl = null;

// Every chain of the board: its tracks (board mm) and its panels' pieces (in the panel's
// own frame, the panel at home upright: `origin` is its slot's top left).
function chains() {
  const out = board.tracks.map((track) => ({ track, spaces: track.spaces, origin: [0, 0] }));
  for (const panel of Object.values(board.panels)) {
    const origin = board.slots.at[panel.home];
    for (const piece of panel.pieces) out.push({ track: null, spaces: piece.spaces, origin });
  }
  return out;
}

function where(chain, space) {
  return [chain.origin[0] + space[1], chain.origin[1] + space[2]];
}

function radius() {
  return Math.max(board.size[0], board.size[1]) / 70;
}

function spaceKind(chain, index) {
  if (!chain.track) return "";
  const last = chain.spaces.length - 1;
  if (index === 0 && chain.track.from === "start") return "start";
  if (index === last && chain.track.to === "finish") return "finish";
  return "";
}

function isChosen(chain, index) {
  return chosen !== null && chosen.chain.spaces === chain.spaces && chosen.index === index;
}

function drawBoard() {
  const svg = document.getElementById("board-drawing");
  const [width, height] = board.size;
  const r = radius();
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  const parts = [];
  const [slotW, slotH] = board.slots.size;
  for (const [x, y] of Object.values(board.slots.at)) {
    parts.push(s("rect", { x, y, width: slotW, height: slotH, class: "board-slot" }));
  }
  for (const chain of chains()) {
    const points = chain.spaces.map((space) => where(chain, space).join(",")).join(" ");
    const bad = chain.track && marked.includes(chain.track.id);
    parts.push(s("polyline", { points, class: bad ? "board-line marked" : "board-line" }));
    chain.spaces.forEach((space, index) => {
      const [x, y] = where(chain, space);
      const kind = spaceKind(chain, index);
      const classes = ["board-space", kind, isChosen(chain, index) ? "chosen" : ""];
      if (marked.includes(space[0])) parts.push(s("circle", { cx: x, cy: y, r: r * 1.7, class: "board-marked" }));
      parts.push(s("circle", { cx: x, cy: y, r, class: classes.join(" ") }));
      parts.push(s("text", { x: x + r * 1.1, y: y - r * 0.6, "font-size": r * 1.2, class: "board-name" }, space[0]));
    });
    for (const [end, index] of [["from", 0], ["to", chain.spaces.length - 1]]) {
      if (!chain.track || chain.track[end] !== "dead end") continue;
      const [x, y] = where(chain, chain.spaces[index]);
      parts.push(s("rect", { x: x - r * 1.3, y: y - r * 1.3, width: r * 2.6, height: r * 0.6, class: "board-dead-end" }));
    }
  }
  svg.replaceChildren(...parts);
  const line = document.getElementById("board-chosen");
  if (adding) line.textContent = t("board_adding");
  else if (chosen === null) line.textContent = t("board_pick");
  else {
    const named = chosen.chain.track ? t("board_track", { name: chosen.chain.track.id }) : t("board_piece");
    line.textContent = t("board_chosen", { number: chosen.index + 1, chain: named });
  }
  for (const button of document.querySelectorAll("#board-marks button")) {
    button.disabled = chosen === null && button.id !== "board-done";
  }
}

function boardSay(key) {
  document.getElementById("board-chosen").textContent = t(key);
}

// A tap on the drawing: a space chosen, the chosen one moved there, or a new one placed
// after it.
function tapBoard(event) {
  const svg = document.getElementById("board-drawing");
  const point = new DOMPoint(event.clientX, event.clientY).matrixTransform(svg.getScreenCTM().inverse());
  const here = [Math.round(point.x * 10) / 10, Math.round(point.y * 10) / 10];
  if (adding && chosen !== null) {
    const chain = chosen.chain;
    const space = [newId(chain.spaces[chosen.index][0]), here[0] - chain.origin[0], here[1] - chain.origin[1]];
    chain.spaces.splice(chosen.index + 1, 0, space);
    chosen = { chain, index: chosen.index + 1 };
    adding = false;
    drawBoard();
    return;
  }
  // none chosen: the nearest space within a finger's reach; one chosen: a tap on another
  // space's circle chooses that one, anywhere else (its own circle too: a nudge) moves the
  // chosen one there (Done chooses none)
  const reach = chosen === null ? Math.max(radius() * 1.6, TAP_PX / svg.getScreenCTM().a) : radius() * 1.2;
  let near = null;
  let best = reach;
  for (const chain of chains()) {
    chain.spaces.forEach((space, index) => {
      const [x, y] = where(chain, space);
      const d = Math.hypot(x - point.x, y - point.y);
      if (d < best) { best = d; near = { chain, index }; }
    });
  }
  if (near !== null && !isChosen(near.chain, near.index)) {
    chosen = near;
  } else if (chosen !== null) {
    const space = chosen.chain.spaces[chosen.index];
    space[1] = Math.round((here[0] - chosen.chain.origin[0]) * 10) / 10;
    space[2] = Math.round((here[1] - chosen.chain.origin[1]) * 10) / 10;
  }
  drawBoard();
}

// A new space's name: the chosen one's letters and the first number no space has.
function newId(after) {
  const stem = after.replace(/\d+$/, "");
  const used = new Set(chains().flatMap((chain) => chain.spaces.map((space) => space[0])));
  let n = 1;
  while (used.has(`${stem}${n}`)) n += 1;
  return `${stem}${n}`;
}

// Start, Finish, dead end or the proposed end, at the chosen space's end of its track.
function markEnd(mark) {
  const { chain, index } = chosen;
  if (!chain.track) return boardSay("board_panel_end");
  const last = chain.spaces.length - 1;
  const track = chain.track;
  if (mark === "start") {
    if (index !== 0) return boardSay("board_start_first");
    track.from = "start";
  } else if (mark === "finish") {
    if (index !== last) return boardSay("board_finish_last");
    track.to = "finish";
  } else if (index !== 0 && index !== last) {
    return boardSay("board_not_end");
  } else {
    const end = index === last && index !== 0 ? "to" : "from";
    track[end] = mark === "proposed" ? proposedEnds[track.id][end] : "dead end";
  }
  drawBoard();
}

function removeSpace() {
  const { chain, index } = chosen;
  if (chain.spaces.length === 1) return boardSay("board_last_space");
  chain.spaces.splice(index, 1);
  chosen = null;
  drawBoard();
}

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
    proposedEnds = Object.fromEntries(board.tracks.map((track) => [track.id, { from: track.from, to: track.to }]));
    chosen = null;
    adding = false;
    marked = [];
    said.textContent = answer.said;
    document.getElementById("board-saved").textContent = "";
    document.getElementById("board-marking").hidden = false;
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
  } catch {
    line.textContent = t("no_answer");
  }
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
  document.getElementById("board-look").addEventListener("click", lookAtBoard);
  document.getElementById("board-save").addEventListener("click", saveBoard);
  document.getElementById("board-drawing").addEventListener("click", tapBoard);
  for (const button of document.querySelectorAll("#board-marks [data-mark]")) {
    button.addEventListener("click", () => markEnd(button.dataset.mark));
  }
  document.getElementById("board-add").addEventListener("click", () => { adding = true; drawBoard(); });
  document.getElementById("board-remove").addEventListener("click", removeSpace);
  document.getElementById("board-done").addEventListener("click", () => { chosen = null; adding = false; drawBoard(); });
  const choice = document.getElementById("game");
  if (choice) choice.addEventListener("change", showBoardStep);
  document.addEventListener("pin-state", showBoardStep);
  document.addEventListener("table-drawn", showBoardStep);
  document.getElementById("setup-open").addEventListener("click", showBoardStep);
  showBoardStep();
}

document.addEventListener("DOMContentLoaded", setupBoardStep);

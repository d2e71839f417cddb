// The switching-track game's page: draws the board as it lies (its spaces, the track as it
// joins now through the panels in their slots, Start, Finish and the dead ends), every
// train pointing the way it faces, whose turn it is, the roll and the slide it made, every
// legal move for the roll with its outcome in words (tap one: its bump chain is drawn on the
// board, then a button plays it), the depots and repair tiles, and the winner; and says what
// its buttons post. It runs after the page's shell (web/static/shell.js, whose top comment is
// the contract between the two) and uses its helpers. No rules live here: every move, every
// outcome and every word comes with the view (companion/games/switching/view.py).
"use strict";

const SW_SECTIONS = ["sw-status-section", "sw-roll-section", "sw-moves-section",
  "sw-board-section", "sw-ranking"];
const COLOUR_DIE = ["purple", "cyan", "orange"];
const PIPS = [1, 2, 3, 4, 5, 6];

let chosenMove = null; // the id of the move tapped, whose chain the board shows
let draft = { colour: null, repair: null, dice: [null, null] }; // the roll being typed in
let rollOpen = false; // typing the roll in, folded away while a camera reads the dice

// A train's colour as a colour and as its letter, so a colour-blind player tells the
// trains apart as well as anyone (the letters are the page's words, `letter_<colour>`).
function trainChip(colour, extra = "") {
  return h("span", { class: `sw-chip sw-${colour} ${extra}`, title: t(`colour_${colour}`) },
    t(`letter_${colour}`));
}

function panelChip(colour) {
  return h("span", { class: `sw-panel-chip sw-${colour}` }, t(`colour_${colour}`));
}

// The shell's `gamePage.draw`: every part of the game, or none when no game is dealt.
function drawSwitching(v, replay) {
  const playing = Boolean(v && v.game === "switching");
  drawSession(playing && !replay ? v.session : null);
  for (const id of SW_SECTIONS) document.getElementById(id).hidden = !playing;
  if (!playing) return false;
  const moves = replay ? [] : v.moves;
  if (!moves.some((m) => m.id === chosenMove)) chosenMove = null;
  drawStatus(v);
  drawRoll(v, replay);
  drawMoves(v, replay);
  drawBoard(v);
  drawRanking(v, replay);
  return true;
}

function drawStatus(v) {
  const mover = v.to_move === null ? null : v.players[v.to_move];
  const head = mover
    ? h("div", { class: "to-move", id: "sw-to-move" }, trainChip(mover.colour), " ",
      isolateNames(t("to_move", { name: mover.name })))
    : h("div", { class: "to-move", id: "sw-to-move" }, t("game_over"));
  const kinds = [v.short ? t("short_game") : t("full_game")];
  if (v.repair) kinds.push(t("repair_variant"));
  document.getElementById("sw-status").replaceChildren(head,
    h("div", { id: "sw-kind" }, kinds.join(" · ")));
  // On the screen beside the table, once the game is over, the ranking says the depots.
  document.getElementById("sw-players").hidden = KIOSK && v.over;
  document.getElementById("sw-players").replaceChildren(...v.players.map((p) => h("div", {
    class: `sw-player${p.to_move ? " to-move" : ""}`, "data-seat": p.seat, "data-colour": p.colour },
  trainChip(p.colour), " ", h("bdi", { class: "name" }, p.name), " ",
  h("span", { class: "sw-counts" },
    h("span", { class: "sw-depot" }, t("depot", { n: p.depot })), " · ",
    h("span", { class: "sw-on-board" }, t("on_board", { n: p.on_board })), " · ",
    h("span", { class: "sw-waiting" }, t("waiting", { n: p.waiting })),
    v.repair ? [" · ", h("span", { class: "sw-repair" }, t("repair_tiles", { n: p.repair }))] : null))));
}

// --- the roll -----------------------------------------------------------------------------

// The roll as thrown: the colour die, the two number dice and their sum, doubles said; a
// repair tile played instead of the colour die names the panel it moved.
function rollShown(roll) {
  const parts = [];
  if (roll.repair) {
    parts.push(h("span", { class: `sw-die sw-colour-die sw-${roll.repair}`, id: "sw-repair-played" },
      t("repair_panel", { panel: t(`colour_${roll.repair}`) })));
  } else {
    parts.push(h("span", { class: `sw-die sw-colour-die sw-${roll.colour}`, id: "sw-colour-die",
      title: t("colour_die") }, t(`colour_${roll.colour}`)));
  }
  for (const [i, pips] of roll.dice.entries()) {
    parts.push(h("span", { class: `sw-die sw-number-die${i ? " black" : ""}`, "data-pips": pips,
      title: t("number_die") }, String(pips)));
  }
  parts.push(h("span", { id: "sw-total" }, t("total", { n: roll.total })));
  if (roll.doubles) parts.push(h("strong", { id: "sw-doubles" }, t("doubles")));
  return h("div", { class: "sw-dice", id: "sw-roll" }, parts);
}

// The roll typed in on the page when no camera reads the dice: the colour die's panel
// colour (or, holding a repair tile, a panel it slides instead, S-20), then each number
// die's pips; sent once all are chosen.
function rollForm(v) {
  const pick = (what) => () => {
    Object.assign(draft, what);
    drawRoll(v, false);
  };
  const colours = h("div", { class: "sw-choice", role: "group", "aria-label": t("colour_die") },
    COLOUR_DIE.map((c) => h("button", { type: "button", "data-colour": c,
      class: `sw-die sw-colour-die sw-${c}${draft.colour === c ? " chosen" : ""}`,
      "aria-pressed": String(draft.colour === c), onclick: pick({ colour: c, repair: null }) },
    t(`colour_${c}`))));
  const parts = [h("h3", {}, isolateNames(t("roll_ask", { name: v.players[v.to_move].name }))), colours];
  if (v.repair_options.length) {
    parts.push(h("p", { class: "sw-choice-name" }, t("repair_ask")),
      h("div", { class: "sw-choice", id: "sw-repair-options" }, v.repair_options.map((panel) =>
        h("button", { type: "button", "data-repair": panel, "aria-pressed": String(draft.repair === panel),
          class: `sw-die sw-colour-die sw-${panel}${draft.repair === panel ? " chosen" : ""}`,
          onclick: pick({ colour: null, repair: panel }) }, t("repair_panel", { panel: t(`colour_${panel}`) })))));
  }
  for (const i of [0, 1]) {
    const name = t(i ? "second_die" : "first_die");
    parts.push(h("div", { class: "sw-choice", role: "group", "aria-label": name },
      h("span", { class: "sw-choice-name" }, name),
      PIPS.map((n) => h("button", { type: "button", "data-die": i, "data-pips": n,
        class: `sw-die sw-number-die${i ? " black" : ""}${draft.dice[i] === n ? " chosen" : ""}`,
        "aria-pressed": String(draft.dice[i] === n),
        onclick: pick({ dice: i ? [draft.dice[0], n] : [n, draft.dice[1]] }) }, String(n)))));
  }
  const ready = (draft.colour !== null || draft.repair !== null) && draft.dice.every((d) => d !== null);
  const body = draft.repair ? { repair: draft.repair } : { colour: draft.colour };
  parts.push(h("button", { type: "button", class: "primary", id: "sw-send-roll", disabled: !ready,
    onclick: async () => {
      if (await send("/api/command/roll", { ...body, dice: draft.dice, turn: v.turn })) forget();
    } }, t("send_roll")));
  return parts;
}

function drawRoll(v, replay) {
  const box = document.getElementById("sw-roll-section");
  // A record watched shows each move, never a roll pending; a game over has none to come.
  // The screen beside the table shows the roll thrown; the dice are typed in on a phone.
  box.hidden = ((replay || KIOSK) && !v.roll) || v.over;
  if (box.hidden) {
    box.replaceChildren();
    return;
  }
  const parts = [h("h2", {}, t("roll"))];
  if (v.roll) parts.push(rollShown(v.roll));
  if (v.slide) parts.push(h("p", { id: "sw-slide" }, v.slide));
  const rolling = (v.phase === "roll" || v.phase === "reroll") && !KIOSK;
  if (!replay && rolling && !v.session) {
    parts.push(...rollForm(v));
  } else if (!replay && rolling) {
    // A camera reads the dice: typing them in is folded away, for dice it cannot read,
    // and stays open while a player chooses.
    const fold = h("details", { id: "sw-roll-by-hand", open: rollOpen },
      h("summary", {}, t("roll_by_hand")), rollForm(v));
    fold.addEventListener("toggle", () => { rollOpen = fold.open; });
    parts.push(fold);
  }
  box.replaceChildren(...parts);
}

// --- the moves ----------------------------------------------------------------------------

function choose(id) {
  chosenMove = chosenMove === id ? null : id;
  drawSwitching(view, false);
}

// Every legal move for the roll, each with its whole outcome in words; the one tapped shows
// its bump chain step by step and the button that plays it.
function drawMoves(v, replay) {
  const box = document.getElementById("sw-moves-section");
  box.hidden = replay || (v.over && (KIOSK || !v.undo.possible));
  if (box.hidden || v.over) {
    // Once won, only the last turn may still be taken back: its button alone, under the
    // ranking rather than inside it.
    box.replaceChildren(...(box.hidden ? [] : [undoButton(v)]));
    return;
  }
  const parts = [];
  if (KIOSK && v.phase === "move") {
    // On the screen beside the table: every move with its outcome, cut to what fits.
    parts.push(h("h2", {}, t(v.no_move ? "no_move" : "moves")),
      h("ul", { id: "sw-move-list", class: "sw-moves", "data-kiosk-cut": "2" }, v.moves.map((m) =>
        h("li", { class: "sw-move", "data-move": m.id }, trainChip(m.colour), " ", m.text))));
  } else if (v.phase === "move") {
    parts.push(h("h2", {}, t(v.no_move ? "no_move" : "moves")));
    parts.push(h("ul", { id: "sw-move-list", class: "sw-moves" }, v.moves.map((m) => {
      const chosen = m.id === chosenMove;
      return h("li", { class: `sw-move${chosen ? " chosen" : ""}`, "data-move": m.id },
        h("button", { type: "button", class: "sw-move-button", "aria-expanded": String(chosen),
          onclick: () => choose(m.id) }, trainChip(m.colour), " ", m.text),
        chosen ? h("ol", { class: "sw-steps", id: "sw-steps" }, m.steps.map((step, i) =>
          h("li", { "data-step": i, class: `sw-step ${step.end}` }, trainChip(step.colour, "small"), " ",
            step.text))) : null,
        chosen ? h("button", { type: "button", class: "primary", id: "sw-play",
          onclick: () => play(v, m) }, t("play_move")) : null);
    })));
  } else if (v.phase === "reroll") {
    const key = v.reroll.train === null ? "reroll_enter" : "reroll_train";
    parts.push(h("h2", {}, t("doubles_again")), h("p", { id: "sw-reroll" },
      isolateNames(t(key, { name: v.players[v.to_move].name, space: v.reroll.place }))));
  }
  if (KIOSK) {
    box.hidden = !parts.length;
    box.replaceChildren(...parts);
    return;
  }
  if (v.may_pass) {
    parts.push(h("button", { type: "button", id: "sw-pass",
      onclick: () => send("/api/command/pass", { turn: v.turn }) },
    t(v.phase === "reroll" ? "end_turn" : "pass")));
  }
  parts.push(undoButton(v));
  box.replaceChildren(...parts);
}

function undoButton(v) {
  return h("button", { id: "sw-undo", type: "button", disabled: !v.undo.possible,
    title: v.undo.possible ? null : t("undo_no"), onclick: () => send("/api/command/undo", { turn: v.turn }) },
  t("undo"));
}

async function play(v, move) {
  if (await send("/api/command/play", { ...move.body, turn: v.turn })) chosenMove = null;
}

// --- the board ----------------------------------------------------------------------------

function text(x, y, words, cls, size) {
  return s("text", { x, y, class: cls, "font-size": size }, document.createTextNode(words));
}

// The board's unit: a third of the usual distance between neighbouring spaces, in the
// board's mm, so marks, trains and words fit a board of any size.
function unitOf(b, at) {
  const lengths = b.links.filter(([a, z]) => at[a] && at[z])
    .map(([a, z]) => Math.hypot(at[a][0] - at[z][0], at[a][1] - at[z][1])).sort((x, y) => x - y);
  return lengths.length ? lengths[Math.floor(lengths.length / 2)] / 3 : Math.max(...b.size) / 60;
}

// A train: a locomotive pointing the way it faces (its nose at +x before turning), in its
// player's colour, with the colour's letter upright on it.
function locomotive(train, at, u) {
  const [x, y] = at;
  const k = u / 6;
  return s("g", { class: `sw-train sw-${train.colour}`, "data-space": train.space,
    "data-colour": train.colour, transform: `translate(${x} ${y})` },
  s("polygon", { points: "-9,-6 4,-6 10,0 4,6 -9,6", transform: `rotate(${train.angle}) scale(${k})`,
    class: "sw-loco", "stroke-width": 1.2 }),
  text(0, 0, t(`letter_${train.colour}`), "sw-loco-letter", 7 * k));
}

function spaceMark(space, u) {
  const g = s("g", { class: `sw-space ${space.kind}`, "data-space": space.id,
    transform: `translate(${space.x} ${space.y})` });
  const r = u * 0.9;
  if (space.kind === "start") g.append(s("rect", { x: -r, y: -r, width: 2 * r, height: 2 * r, rx: r / 4 }));
  else if (space.kind === "finish") g.append(s("rect", { x: -r, y: -r, width: 2 * r, height: 2 * r, class: "flag" }));
  else g.append(s("circle", { r }));
  return g;
}

// The chosen move's chain on the board: each train's path an arrow, numbered by step (the
// number on the path, clear of the trains); a train that starts over crossed out where it
// went off, a train that finishes flagged.
function chain(move, at, u) {
  const g = s("g", { id: "sw-chain" });
  move.steps.forEach((step, i) => {
    const points = step.path.map((id) => at[id]).filter(Boolean);
    if (points.length > 1) {
      g.append(s("polyline", { points: points.map((p) => p.join(",")).join(" "),
        class: `sw-path sw-${step.colour}`, "marker-end": "url(#sw-arrow)", "data-step": i,
        "stroke-width": u / 3 }));
    }
    const [x, y] = points[points.length - 1];
    // The number beside the path's middle rail, off the track, where no train stands; a
    // train that stays put has it above.
    const k = Math.max(0, Math.floor((points.length - 2) / 2));
    const [a, z] = points.length > 1 ? [points[k], points[k + 1]] : [[x, y], [x + 1, y]];
    const length = Math.hypot(z[0] - a[0], z[1] - a[1]);
    const bx = (a[0] + z[0]) / 2 + (2.2 * u * (z[1] - a[1])) / length;
    const by = (a[1] + z[1]) / 2 - (2.2 * u * (z[0] - a[0])) / length;
    g.append(s("circle", { cx: bx, cy: by, r: 0.8 * u, class: "sw-step-badge", "data-step": i }));
    g.append(text(bx, by, String(i + 1), "sw-step-number", u));
    if (step.end === "started_over") g.append(text(x + 1.6 * u, y, "✖", "sw-off", 1.8 * u));
    if (step.end === "finished") g.append(text(x + 1.6 * u, y, "⚑", "sw-home", 1.8 * u));
  });
  return g;
}

// Each panel's name, the board on the screen (so its size is known: on the screen beside
// the table, at least the smallest text it allows), where no space or dead end lies under
// it: in its panel, the nearer its top left as the panel lies upright the better (the
// bottom right, upside down, when turned round, as the players see the print); else just
// outside it, on the board, over no other panel.
function placePanelNames(svg, names, b, u) {
  const marks = b.spaces.map((sp) => [sp.x, sp.y]).concat(b.dead_ends.map((end) => [end.x, end.y]));
  const scale = svg.getScreenCTM() ? svg.getScreenCTM().a : 0;
  const least = KIOSK && scale ? (1.05 * KIOSK_MIN_TEXT * window.innerHeight) / scale : 0;
  const reach = 1.2 * u;  // a mark's half size, and a little air
  const [W, H] = b.size;
  const slots = b.slots.map((sl) => [sl.x, sl.y, sl.x + sl.w, sl.y + sl.h]);
  const placed = [];  // the names placed already: none covers another
  for (const [p, name] of names) {
    if (least > 1.2 * u) name.setAttribute("font-size", least);
    const box = name.getBBox();
    const w = box.width || 0.7 * 1.2 * u * name.textContent.length, hgt = box.height || 1.2 * u;
    const own = [p.x, p.y, p.x + p.w, p.y + p.h];
    const inside = (x, y) => x >= own[0] && y >= own[1] && x + w <= own[2] && y + hgt <= own[3];
    const meets = (x, y) => (r) => r[0] < x + w && x < r[2] && r[1] < y + hgt && y < r[3];
    const fits = (x, y) => x >= 0 && y >= 0 && x + w <= W && y + hgt <= H
      && !marks.some(([mx, my]) => mx > x - reach && mx < x + w + reach && my > y - reach && my < y + hgt + reach)
      && !placed.some(meets(x, y)) && (inside(x, y) || !slots.some(meets(x, y)));
    const [cx, cy] = p.turned ? [own[2] - w, own[3] - hgt] : [own[0], own[1]];  // the corner wanted
    let best = null;
    for (let y = own[1] - hgt - u; y <= own[3] + u; y += u / 2) {
      for (let x = own[0] - w - u; x <= own[2] + u; x += u / 2) {
        if (!fits(x, y)) continue;
        const cost = Math.hypot(x - cx, y - cy) + (inside(x, y) ? 0 : 1e6);
        if (!best || cost < best[2]) best = [x, y, cost];
      }
    }
    const [x, y] = best || [cx, cy];
    placed.push([x, y, x + w, y + hgt]);
    name.setAttribute("x", x);
    name.setAttribute("y", y + hgt / 2);
    if (p.turned) name.setAttribute("transform", `rotate(180 ${x + w / 2} ${y + hgt / 2})`);
  }
}

function drawBoard(v) {
  const b = v.board;
  const [W, H] = b.size;
  const at = Object.fromEntries(b.spaces.map((sp) => [sp.id, [sp.x, sp.y]]));
  const u = unitOf(b, at);
  // The board's margins (kept free for the camera's markers) are left out: on a phone
  // every millimetre of the screen goes to the tracks.
  const xs = b.spaces.map((sp) => sp.x).concat(b.slots.flatMap((sl) => [sl.x, sl.x + sl.w]));
  const ys = b.spaces.map((sp) => sp.y).concat(b.slots.flatMap((sl) => [sl.y, sl.y + sl.h]));
  const x0 = Math.max(0, Math.min(...xs) - 2.5 * u), y0 = Math.max(0, Math.min(...ys) - 2.5 * u);
  const x1 = Math.min(W, Math.max(...xs) + 2.5 * u), y1 = Math.min(H, Math.max(...ys) + 2.5 * u);
  const svg = s("svg", { viewBox: `${x0} ${y0} ${x1 - x0} ${y1 - y0}`, role: "img",
    "aria-label": t("board"), id: "sw-board-svg" });
  svg.append(s("defs", {}, s("marker", { id: "sw-arrow", viewBox: "0 0 10 10", refX: 8, refY: 5,
    markerWidth: 4, markerHeight: 4, orient: "auto-start-reverse" },
  s("path", { d: "M 0 0 L 10 5 L 0 10 z", class: "sw-arrow-head" }))));
  svg.append(s("rect", { x: 0, y: 0, width: W, height: H, rx: u, class: "sw-board-bg" }));
  for (const slot of b.slots) {
    svg.append(s("rect", { x: slot.x, y: slot.y, width: slot.w, height: slot.h,
      class: `sw-slot${slot.empty ? " empty" : ""}`, "data-slot": slot.id }));
    // Its compass point in the page's words (NO, SO in Spanish); a board's own slot id else.
    const mark = TEXT[`slot_mark_${slot.id}`] ? t(`slot_mark_${slot.id}`) : slot.id;
    svg.append(text(slot.x + slot.w - 0.5 * u, slot.y + slot.h - 0.9 * u, mark, "sw-slot-name", 1.2 * u));
  }
  const names = [];  // each panel's name, placed once the board is on the screen
  for (const p of b.panels) {
    const name = text(p.x, p.y, t(`colour_${p.colour}`), "sw-panel-name", 1.2 * u);
    names.push([p, name]);
    svg.append(s("g", { class: `sw-panel sw-${p.colour}${p.turned ? " turned" : ""}`,
      "data-panel": p.colour, "data-slot": p.slot, "data-turned": String(p.turned) },
    s("rect", { x: p.x + 1, y: p.y + 1, width: p.w - 2, height: p.h - 2, rx: u / 2 }), name));
  }
  for (const [a, z] of b.links) {
    svg.append(s("line", { x1: at[a][0], y1: at[a][1], x2: at[z][0], y2: at[z][1],
      class: "sw-rail", "stroke-width": u / 2 }));
  }
  for (const end of b.dead_ends) {
    svg.append(s("g", { class: "sw-dead-end", "data-space": end.space,
      transform: `translate(${end.x} ${end.y})` },
    s("path", { d: `M ${-u} ${-u} L ${u} ${u} M ${u} ${-u} L ${-u} ${u}`, "stroke-width": u / 2.5 })));
  }
  for (const space of b.spaces) svg.append(spaceMark(space, u));
  for (const space of b.spaces) svg.append(text(space.x, space.y, space.id, `sw-space-id ${space.kind}`, 0.75 * u));
  // The move tapped, else the last move played: its trains' paths as arrows, under the
  // trains so that an arrow never covers a train's letter.
  const move = v.moves.find((m) => m.id === chosenMove) || v.last_move;
  if (move) svg.append(chain(move, at, u));
  for (const train of v.trains) svg.append(locomotive(train, at[train.space], u));
  document.getElementById("sw-board").replaceChildren(svg);
  placePanelNames(svg, names, b, u);
  document.getElementById("sw-board-name").textContent = b.ours ? `(${t("board_ours")})` : `(${b.name})`;
  document.getElementById("sw-legend").replaceChildren(
    ...["start", "finish", "dead_end"].map((kind) => h("span", { class: `sw-legend-item ${kind}` },
      t(`legend_${kind}`))),
    ...v.players.map((p) => h("span", { class: "sw-legend-item" }, trainChip(p.colour), " ",
      t(`colour_${p.colour}`))));
}

function drawRanking(v, replay) {
  const box = document.getElementById("sw-ranking");
  box.hidden = !v.ranking;
  if (!v.ranking) return;
  const parts = [h("h2", {}, t("ranking"))];
  if (v.winner !== null) parts.push(h("p", { class: "winner", id: "sw-winner" }, isolateNames(t("winner", { name: v.winner }))));
  parts.push(h("table", { id: "sw-ranking-table" }, v.ranking.map((row) => h("tr", {},
    h("td", {}, String(row.place)), h("td", {}, bdi(row.name)),
    h("td", {}, t("depot", { n: row.depot }))))));
  box.replaceChildren(...parts);
}

// --- the turn at the table (when a camera follows it) ---------------------------------------

// Something the camera or the referee says, in the page's words (the shell's `said`), with
// the colours it names (a panel's, a train's) in the page's words too.
function saidHere(x) {
  const params = { ...x.params };
  for (const name of ["panel", "colour"]) {
    if (typeof params[name] === "string" && t(`colour_${params[name]}`) !== `colour_${params[name]}`) {
      params[name] = t(`colour_${params[name]}`);
    }
  }
  return said({ ...x, params });
}

// What the referee at the table says now: a problem to fix, what it waits for, or what
// the table should do next (throw the dice, move, CONFIRM the move the camera sees).
function drawSession(session) {
  const box = document.getElementById("session");
  box.hidden = !session;
  if (!session) return;
  const trouble = session.problem || session.camera.length;
  box.className = trouble ? "led-error" : session.awaiting === "confirm" ? "led-needs-confirmation" : "";
  const now = session.problem || session.waiting;
  const next = session.awaiting === "nothing" ? t("game_over")
    : t(`session_${session.awaiting}`, { name: session.mover, origin: session.shown ? session.shown.place : "" });
  const parts = [h("h2", {}, t("session")),
    h("p", { class: `big${session.problem ? " problem" : ""}`, id: "session-message" },
      isolateNames(now ? saidHere(now) : next))];
  if (session.camera.length) {
    parts.push(h("div", { id: "session-camera" }, h("h3", {}, t("session_camera")),
      h("ul", {}, session.camera.map((seen) => h("li", {}, saidHere(seen))))));
  }
  // The buttons' help while there is a move to make or take back; not under "Game over".
  if (session.awaiting !== "nothing") parts.push(h("p", { id: "session-help" }, h("small", {}, t("session_help"))));
  box.replaceChildren(...parts);
}

function forget() {
  chosenMove = null;
  draft = { colour: null, repair: null, dice: [null, null] };
}

window.gamePage = { draw: drawSwitching, forget };

// The Caboose design's page (Loose Caboose, Rollecate, LOK'n'ROLL): draws the railway, the
// computed move with its odds, the last turn, the penalty piles, the ranking and the referee
// at the table, and says what their buttons post. It runs after the page's shell
// (web/static/shell.js, whose top comment is the contract between the two) and uses its
// helpers; no rules live here either: every number comes with the view.
"use strict";

let chosenPlay = null; // cards of the play being looked at, joined by commas
let chosenPlace = 0; // index of the placement option chosen for it
let roll = []; // wheels per die being entered

function base(code) {
  return code.split("/")[0];
}

// A card as a person says it ("broken 3", "chaos card 2": words.py's `card_words`), never
// its record code; several joined as a sentence joins them ("1, 2 and broken 3").
function cardKind(code) {
  const bare = base(code.replace(/!$/, ""));
  const value = bare.replace(/\D/g, "");
  return { value, kind: bare.startsWith("C") ? "chaos" : bare.endsWith("x") ? "broken" : "track" };
}

function cardWords(code) {
  const { value, kind } = cardKind(code);
  return t(`card_${kind}`, { value });
}

function cardsWords(codes) {
  const said = codes.map(cardWords);
  if (said.length < 2) return said.join("");
  return t("and", { most: said.slice(0, -1).join(", "), last: said[said.length - 1] });
}

function diceWords(n) {
  return t("dice_to_roll", { n });
}

// A card's picture: its value, a broken track crossed out, a chaos card starred; its words
// (`cardWords`) as its title and for a screen reader.
function cardChip(code, extra = "") {
  const { value, kind } = cardKind(code);
  const label = kind === "broken" ? `${value}✕` : kind === "chaos" ? `✶${value}` : value;
  const shape = code.replace(/!$/, "").split("/")[1];
  const glyph = shape ? h("small", { class: "shape" }, shape === "c" ? "╯" : "│") : null;
  const said = cardWords(code);
  return h("span", { class: `card v${value} ${kind} ${extra}`, "data-code": code, title: said,
    "aria-label": said }, label, glyph);
}

// A die's face as an option: a pip die's 1-6 as its glyph and number, a wheel die's wheels.
function dieFace(face, kind) {
  if (kind === "pips") return h("span", {}, `${String.fromCodePoint(0x267f + face)} ${face}`);
  return h("span", {}, t("die_wheels", { n: face }));
}

function chips(codes, extra = "") {
  return h("span", { class: "cards" }, codes.map((c) => cardChip(c, extra)));
}

// The shell's `gamePage.draw`: every part of the game, or none when no game is dealt.
function drawGame(v, replay) {
  drawSession(replay ? null : v && v.session, replay ? null : v && v.to_show, v);
  const playing = Boolean(v && v.game !== null && v.railway);
  for (const id of ["table-view", "piles"]) document.getElementById(id).hidden = !playing;
  if (!playing) {
    for (const id of ["move", "last", "ranking"]) document.getElementById(id).hidden = true;
    return false;
  }
  drawStatus(v);
  drawRailway(v, replay ? null : v.session && v.session.question);
  drawMove(v, replay);
  drawLast(v, replay);
  drawPiles(v);
  drawRanking(v);
  return true;
}

function drawStatus(v) {
  const status = document.getElementById("status");
  const mover = v.players[v.to_move];
  status.replaceChildren(
    h("div", { class: "to-move", id: "to-move" },
      v.over ? t("game_over") : isolateNames(t("to_move", { name: mover.name }))),
    h("div", { id: "draw-left" }, `${v.edition.name} · ${t("draw_left", { n: v.draw })}`),
    h("div", { id: "hand-sizes" }, v.players.flatMap((p, i) => [i ? " · " : "", bdi(p.name),
      `: ${t("hand_size", { n: p.hand_size })}`])),
  );
}

function halfExtents(pose, size) {
  const sideways = Math.round(pose[2] / 90) % 2 === 1;
  return sideways ? [size[1] / 2, size[0] / 2] : [size[0] / 2, size[1] / 2];
}

function trackPath(shape, w, h2) {
  // Conventions of companion.rules.geometry: a straight joins the two short edges, a curve
  // the bottom short edge and the right long edge, at rotation 0.
  if (shape === "c") return `M 0 ${h2} A ${w} ${h2} 0 0 1 ${w} 0`;
  return `M 0 ${-h2} L 0 ${h2}`;
}

function cardBox(pose, size) {
  const [hw, hh] = halfExtents(pose, size);
  return [pose[0] - hw, pose[1] - hh, pose[0] + hw, pose[1] + hh];
}

function overlaps(a, b) {
  return a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3];
}

// Where the "back" or "front" label of an end card goes: beside that card on the side away
// from its neighbour in the railway (whichever way the railway runs), else on the first
// side that covers no other card. `away`: the direction of that side when the railway is
// one card long.
function endLabel(rw, index, neighbour, word, away) {
  const pose = rw.cards[index].pose;
  const [hw, hh] = halfExtents(pose, rw.size);
  let [dx, dy] = away;
  if (neighbour !== null) {
    dx = pose[0] - rw.cards[neighbour].pose[0];
    dy = pose[1] - rw.cards[neighbour].pose[1];
  }
  const lw = word.length * 9 + 4, lh = 16, gap = 5;  // the label's size at 14px, bold
  const sides = {
    up: [pose[0], pose[1] - hh - gap - lh / 2],
    down: [pose[0], pose[1] + hh + gap + lh / 2],
    left: [pose[0] - hw - gap - lw / 2, pose[1]],
    right: [pose[0] + hw + gap + lw / 2, pose[1]],
  };
  const vertical = [dy < 0 ? "up" : "down", dy < 0 ? "down" : "up"];
  const horizontal = [dx < 0 ? "left" : "right", dx < 0 ? "right" : "left"];
  const order = Math.abs(dy) >= Math.abs(dx)
    ? [vertical[0], horizontal[0], horizontal[1], vertical[1]]
    : [horizontal[0], vertical[0], vertical[1], horizontal[1]];
  const others = rw.cards.filter((_, i) => i !== index).map((c) => cardBox(c.pose, rw.size));
  const placed = order.map((side) => {
    const [x, y] = sides[side];
    return { x, y, box: [x - lw / 2, y - lh / 2, x + lw / 2, y + lh / 2] };
  });
  return placed.find((p) => !others.some((box) => overlaps(p.box, box))) || placed[0];
}

// The dice a camera's question is about, where they lie beside the railway (`question.drawn`,
// the railway's own frame): each numbered as the question numbers it, the one asked about
// ringed, so the players find "die 2" among the dice on the table.
const DIE_DRAWN = 30;  // a die's side on the drawing, mm (a real one is 16: bigger, to be read)

function diceDrawn(question, rw) {
  // a railway drawn in rows for want of its poses is no map of the table
  return question && question.drawn && !rw.schematic ? question.drawn : [];
}

function drawDice(svg, question, rw) {
  diceDrawn(question, rw).forEach(([x, y], i) => {
    const asked = i === question.die;
    const g = s("g", { transform: `translate(${x} ${y})`, class: `drawn-die${asked ? " asked" : ""}`,
      "data-die": i });
    if (asked) g.append(s("circle", { r: DIE_DRAWN, class: "ring" }));
    g.append(s("rect", { x: -DIE_DRAWN / 2, y: -DIE_DRAWN / 2, width: DIE_DRAWN, height: DIE_DRAWN,
      rx: 4 }));
    g.append(s("text", {}, document.createTextNode(String(i + 1))));
    svg.append(g);
  });
}

function drawRailway(v, question) {
  document.getElementById("railway").replaceChildren(railwaySvg(v, question, true));
  document.getElementById("schematic").textContent = v.railway.schematic ? `(${t("schematic")})` : "";
}

// The railway's drawing: `main`, the one of the table's panel (its parts named by id for
// the tests); otherwise a copy beside a die's question on a phone, where the railway's
// panel is out of sight.
function railwaySvg(v, question, main) {
  const rw = v.railway;
  const [W, H] = rw.size;
  const ghosts = placementOptions(v);
  const n = rw.cards.length;
  const back = endLabel(rw, 0, n > 1 ? 1 : null, t("back"), [0, -1]);
  const front = endLabel(rw, n - 1, n > 1 ? n - 2 : null, t("front"), [0, 1]);
  const ring = DIE_DRAWN + 4;
  const boxes = rw.cards.map((c) => c.pose).concat(ghosts.map((g) => g[0]))
    .map((pose) => cardBox(pose, rw.size)).concat([back.box, front.box])
    .concat(diceDrawn(question, rw).map(([x, y]) => [x - ring, y - ring, x + ring, y + ring]));
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (const box of boxes) {
    minX = Math.min(minX, box[0]);
    minY = Math.min(minY, box[1]);
    maxX = Math.max(maxX, box[2]);
    maxY = Math.max(maxY, box[3]);
  }
  const pad = 30;
  const svg = s("svg", {
    viewBox: `${minX - pad} ${minY - pad} ${maxX - minX + 2 * pad} ${maxY - minY + 2 * pad}`,
    role: "img",
    "aria-label": t("railway"),
    id: main ? "railway-svg" : null,
  });
  rw.cards.forEach((c, i) => {
    const [x, y, r] = c.pose;
    const g = s("g", {
      transform: `translate(${x} ${y}) rotate(${r})`,
      class: `rw ${c.kind}`,
      "data-index": i,
      "data-code": c.code,
    });
    g.append(s("rect", { x: -W / 2, y: -H / 2, width: W, height: H, rx: 5,
      class: "rw-card", fill: `var(--v${c.value})` }));
    g.append(s("path", { d: trackPath(rw.schematic ? "s" : c.shape, W / 2, H / 2),
      fill: "none", stroke: "#4a3b2c", "stroke-width": 9 }));
    g.append(s("path", { d: trackPath(rw.schematic ? "s" : c.shape, W / 2, H / 2),
      fill: "none", stroke: "#e9dcc0", "stroke-width": 3, "stroke-dasharray": "3 5" }));
    if (c.kind === "broken") {
      g.append(s("path", { d: "M -14 -14 L 14 14 M 14 -14 L -14 14",
        stroke: "#b3261e", "stroke-width": 6, "stroke-linecap": "round" }));
    }
    svg.append(g);
  });
  // Direction of travel: an arrow from each card's centre towards the next one.
  for (let i = 0; i + 1 < n; i++) {
    const [x1, y1] = rw.cards[i].pose;
    const [x2, y2] = rw.cards[i + 1].pose;
    const mx = (x1 + x2) / 2, my = (y1 + y2) / 2;
    const angle = (Math.atan2(y2 - y1, x2 - x1) * 180) / Math.PI;
    svg.append(s("polygon", { points: "-9,-8 9,0 -9,8", fill: "#23395b",
      transform: `translate(${mx} ${my}) rotate(${angle})`, class: "direction" }));
  }
  rw.cards.forEach((c, i) => {
    const [x, y] = c.pose;
    const [hw, hh] = halfExtents(c.pose, rw.size);
    // On its baseline, above the card's middle: a value made bigger (the kiosk's smallest
    // text) grows up, away from the caboose under it.
    svg.append(s("text", { x, y: y - 3, class: "rw-value on-card" }, document.createTextNode(String(c.value))));
    svg.append(s("text", { x: x - hw + 4, y: y - hh + 13, class: "rw-index" },
      document.createTextNode(String(i + 1))));
  });
  svg.append(s("text", { x: back.x, y: back.y, class: "rw-label", id: main ? "label-back" : null },
    document.createTextNode(t("back"))));
  svg.append(s("text", { x: front.x, y: front.y, class: "rw-label", id: main ? "label-front" : null },
    document.createTextNode(t("front"))));
  // The caboose on its card, in the card's lower half, under its value: made smaller on a
  // card laid sideways (half as high), so it never reaches the next card's value. Drawn
  // 40 wide, from 20 above its centre to 15 below.
  const [cx, cy] = rw.cards[rw.caboose].pose;
  const [chw, chh] = halfExtents(rw.cards[rw.caboose].pose, rw.size);
  const k = Math.min(1, (chh - 4) / 35, (2 * chw - 4) / 40);
  svg.append(s("g", { transform: `translate(${cx} ${cy + 2 + 20 * k}) scale(${k})`,
    id: main ? "caboose" : null },
    s("rect", { x: -20, y: -12, width: 40, height: 20, rx: 4, fill: "#b3261e", stroke: "#000" }),
    s("rect", { x: -8, y: -20, width: 16, height: 9, fill: "#b3261e", stroke: "#000" }),
    s("circle", { cx: -11, cy: 10, r: 5, fill: "#222" }),
    s("circle", { cx: 11, cy: 10, r: 5, fill: "#222" })));
  ghosts.forEach((option, index) => {
    const [x, y, r] = option[0];
    const g = s("g", { transform: `translate(${x} ${y}) rotate(${r})`,
      onclick: KIOSK || !main ? null : () => choosePlace(index) });
    g.append(s("rect", { x: -W / 2, y: -H / 2, width: W, height: H, rx: 5,
      class: `ghost${index === chosenPlace ? " chosen" : ""}`, "data-option": main ? index : null }));
    svg.append(g);
    svg.append(s("text", { x, y, class: "rw-value" }, document.createTextNode(String(index + 1))));
  });
  drawDice(svg, question, rw);
  return svg;
}

// --- the turn at the table (when a camera follows it) ---------------------------------------

// What the referee at the table says now, said by the server in the page's language: what
// to do, what is wrong, what the camera sees otherwise than the computed move or cannot see
// at all, and a card it is unsure of, which the players answer by tapping it.
function drawShow(want) {
  const label = want.what === "taken"
    ? t("show_taken", { name: want.name, n: want.count })
    : t("show_hand", { name: want.name, n: want.count });
  // On the screen beside the table: what is wanted, said big, for a phone to answer.
  if (KIOSK) return h("p", { class: "big", id: "show-wanted" }, isolateNames(label));
  // A real table's deal is learnt from what it shows: typed here instead of the camera.
  const input = h("input", { id: "show-cards", type: "text", autocomplete: "off",
    placeholder: "3 2x C1" });
  const form = h("form", { id: "show-form" }, h("label", { for: "show-cards" }, isolateNames(label)), input,
    h("button", { type: "submit" }, t("show_button")));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    send("/api/command/shown", { cards: input.value.trim().split(/[\s,]+/).filter(Boolean) });
  });
  return form;
}

function drawSession(session, want, v) {
  const box = document.getElementById("session");
  box.hidden = !session && !want;
  if (box.hidden) return;
  if (!session) {
    box.className = "";
    box.replaceChildren(h("h2", {}, t("session")), drawShow(want));
    return;
  }
  box.className = `led-${session.led}`;
  const question = session.question;
  const parts = [h("h2", {}, t("session"))];
  // The message repeats the problem, the mismatch or the question when one stands.
  if (![session.problem, session.mismatch, question && question.prompt].includes(session.message)) {
    parts.push(h("p", { class: "big", id: "session-message" }, isolateNames(session.message)));
  }
  if (session.problem) {
    parts.push(h("p", { class: "problem", id: "session-problem" }, isolateNames(session.problem)));
  }
  // A CONFIRM refused too early names the mismatch already.
  if (session.mismatch && !(session.problem || "").includes(session.mismatch)) {
    parts.push(h("p", { id: "session-mismatch" },
      h("strong", {}, `${t("session_mismatch")}: `), isolateNames(session.mismatch)));
  }
  if (question) {
    // A card is answered by its code, a die by the face it shows; the screen beside the
    // table shows the options, which a phone answers.
    const die = question.die !== null && question.die !== undefined;
    const option = KIOSK
      ? (answer) => (die ? h("span", { class: "die-face" }, dieFace(answer, question.kind)) : cardChip(answer))
      : die
      ? (face) => h("button", { "data-answer": face, class: "die-face",
        onclick: () => send("/api/command/session/answer", { face }) }, dieFace(face, question.kind))
      : (code) => h("button", { "data-answer": code,
        onclick: () => send("/api/command/session/answer", { code }) }, cardChip(code));
    // What the camera asks about may be no die at all (a card's number, a crumb, a bead):
    // the players say so, and the throw is read without it.
    const noDie = !question.no_die ? null : KIOSK
      ? h("span", { class: "no-die", id: "session-no-die" }, t("session_no_die"))
      : h("button", { type: "button", class: "no-die", id: "session-no-die",
        onclick: () => send("/api/command/session/answer", { no_die: true }) }, t("session_no_die"));
    parts.push(h("div", { id: "session-question" },
      KIOSK ? null : h("h3", {}, t(die ? "session_choose_die" : "session_choose")),  // "tap …"
      h("p", { id: "session-prompt" }, isolateNames(question.prompt)),
      // on the screen beside the table it closes the row of faces (no room for a line of
      // its own there); a phone gives it a line of its own, with why it may be needed
      h("div", { class: "options" }, question.options.map(option), KIOSK ? noDie : null),
      noDie && !KIOSK ? h("div", { class: "no-die-answer" }, noDie,
        h("small", {}, t("session_no_die_hint"))) : null,
      // which die: on a phone the railway's panel is out of sight, so a copy of its drawing
      // comes with the question (the screen beside the table marks its own)
      die && !KIOSK && v && v.railway && diceDrawn(question, v.railway).length
        ? h("figure", { id: "session-die-where" }, railwaySvg(v, question, false),
          h("figcaption", {}, t("session_die_where", { n: question.die + 1 })))
        : null,
      pin || KIOSK ? null : h("p", {}, h("small", {}, t("pin_ask")))));
  }
  if (session.laid.length) {
    parts.push(h("div", { id: "session-laid" }, h("small", {}, `${t("session_laid")}: `),
      chips(session.laid)));
  }
  if (session.roll) {
    const seen = session.roll.seen;
    parts.push(h("p", { id: "session-roll" },
      t("session_roll", { seen: seen.length, n: session.roll.needed }),
      seen.length ? ` (${seen.join(" + ")})` : ""));
  }
  if (want) parts.push(drawShow(want));
  if (session.camera.length) {
    parts.push(h("div", { id: "session-camera" }, h("h3", {}, t("session_camera")),
      h("ul", {}, session.camera.map((seen) => h("li", {}, seen)))));
  }
  box.replaceChildren(...parts);
}

// --- the computed move ----------------------------------------------------------------------

function currentPlay(v) {
  const held = heldHand(v);
  if (!held) return null;
  const key = chosenPlay || (v.staged ? v.staged.cards.join(",") : null);
  return held.plays.find((p) => p.cards.join(",") === key) || null;
}

function placementOptions(v) {
  // The screen beside the table shows where the staged play goes, not the choices a phone has.
  if (KIOSK) return v.staged && v.staged.place ? [v.staged.place] : [];
  const play = currentPlay(v);
  return play && play.placements ? play.placements : [];
}

// A chance a child can picture: "about 2 in 3" rather than 68%.
function friendly(p) {
  if (p === 0) return t("never");
  if (p === 1) return t("always");
  for (let d = 2; d <= 10; d++) {
    const n = Math.round(p * d);
    if (n > 0 && n < d && Math.abs(n / d - p) < 0.025) return t("n_in_d", { n, d });
  }
  return t("n_in_d", { n: Math.max(1, Math.round(p * 100)), d: 100 });
}

// The odds of a play; `withChart`: with the chance of each number of penalty cards.
function oddsChart(odds, withChart = true) {
  const pct = odds.p_derail.percent;
  const oneIn = friendly(odds.p_derail.num / odds.p_derail.den);
  const rows = odds.penalties.map((p, k) => [
    h("span", {}, t("k_cards", { n: k })),
    h("div", { class: `bar${k ? " risk" : ""}`, "data-percent": p.percent }),
    h("span", {}, `${p.percent}%`),
  ]);
  const chart = h("div", { class: "chart" }, rows.flat());
  chart.querySelectorAll(".bar").forEach((bar) => {
    bar.style.width = `${bar.dataset.percent}%`;
  });
  const meter = h("div", { class: "meter" }, h("div", {}));
  meter.firstChild.style.width = `${pct}%`;
  return h("div", { class: "odds" },
    h("div", { class: "big dice-count" }, diceWords(odds.dice)),
    h("div", {}, `${t("derail_chance")}: `, h("strong", { class: "p-derail" }, `${pct}%`), ` (${oneIn})`),
    meter,
    h("div", { class: "expected" }, t("expected", { x: odds.expected_penalty })),
    withChart ? [h("h3", {}, t("penalty_chart")), chart] : null);
}

function drawMove(v, replay) {
  const box = document.getElementById("move");
  box.hidden = replay || v.over || !v.choices;
  if (box.hidden) return;
  if (KIOSK) {
    box.replaceChildren(...kioskMove(v));
    return;
  }
  const c = v.choices;
  const mover = v.players[v.to_move];
  const parts = [h("h2", {}, isolateNames(t("your_turn", { name: mover.name })))];
  if (c.laura) {
    const a = c.laura;
    const action = t(`laura_${a.kind}`, { cards: cardsWords(a.cards || []) });
    parts.push(h("p", { class: "big", id: "laura-action" }, t("laura", { action })),
      h("button", { class: "primary", id: "laura-do", onclick: () => doLaura(a) }, t("laura_do")));
  } else {
    // A real table's deal is not known: the hand is the player's own, not shown.
    const held = c.provisional ? null : heldHand(v);
    if (!c.provisional) parts.push(handBox(mover, held));
    if (held) {
      parts.push(h("h3", {}, t("plays")));
      const current = currentPlay(v);
      for (const play of held.plays) {
        const key = play.cards.join(",");
        const chosen = current && key === current.cards.join(",");
        const fits = play.placements === null || play.placements.length > 0;
        const row = h("div", { class: `play${chosen ? " chosen" : ""}` },
          h("button", { class: chosen ? "chosen" : "", "data-play": key, disabled: !fits,
            onclick: () => choosePlay(play) },
            chips(play.cards), ` ${diceWords(play.dice)} · `,
            t("derail_percent", { p: play.p_derail.percent })),
          fits ? null : h("span", {}, ` ${t("fits_nowhere")}`));
        if (chosen) row.append(...[oddsChart(play), placementButtons(play), diceEntry(play)].filter(Boolean));
        parts.push(row);
      }
    } else if (v.staged) {  // the play another phone chose, as the screen beside the table shows it
      parts.push(h("div", { id: "staged" }, chips(v.staged.cards)), oddsChart(v.staged.odds, false));
    }
    const actions = h("div", {},
      h("button", { id: "pass", onclick: () => send("/api/command/pass", { seat: v.to_move }) }, t("pass")));
    // One chaos card or several, in the order given (each discard is one turn).
    const chaos = held ? held.chaos : [];
    const discards = chaos.length > 1 ? [...chaos.map((code) => [code]), chaos] : [chaos];
    for (const cards of discards.filter((d) => d.length)) {
      actions.append(h("button", { class: "chaos", "data-chaos": cards.join(","),
        onclick: () => send("/api/command/chaos", { seat: v.to_move, cards }) },
        t("chaos", { cards: cardsWords(cards) })));
    }
    parts.push(actions);
  }
  parts.push(h("button", { id: "undo", disabled: !v.undo.possible, title: t("undo_no"),
    onclick: () => send("/api/command/undo", { turn: v.last ? v.last.number : 0 }) }, t("undo")));
  box.replaceChildren(...parts);
}

// The computed move on the screen beside the table: Laura's action, or the play a phone
// chose (staged) with its odds, else who is choosing. Never the mover's hand or its odds:
// everyone reads this screen.
function kioskMove(v) {
  const c = v.choices;
  if (c.laura) {
    const a = c.laura;
    const action = t(`laura_${a.kind}`, { cards: cardsWords(a.cards || []) });
    return [h("p", { class: "big", id: "laura-action" }, t("laura", { action }))];
  }
  if (v.staged) return [h("div", { id: "kiosk-staged" }, chips(v.staged.cards)), oddsChart(v.staged.odds, false)];
  return [h("p", { class: "big", id: "kiosk-choosing" },
    isolateNames(t("choosing", { name: v.players[v.to_move].name })))];
}

// The mover's hand on their phone, once they tapped to see it (the phone lies on a shared
// table), or the button that shows it.
function handBox(mover, held) {
  return h("div", { id: "hand" }, held ? [h("h3", {}, t("hand")), chips(held.hand.map((x) => x.code))] : null,
    handControls(mover.name, held));
}

function placementButtons(play) {
  if (!play.placements || play.placements.length < 2) return null;
  return h("div", {}, h("h3", {}, t("placement")),
    play.placements.map((_, i) => h("button", { class: i === chosenPlace ? "chosen" : "",
      "data-place": i, onclick: () => choosePlace(i) }, t("placement_n", { n: i + 1 }))));
}

function diceEntry(play) {
  const faces = view.choices.faces;
  if (roll.length !== play.dice) roll = Array(play.dice).fill(faces[faces.length - 1]);
  const dice = roll.map((w, i) => h("button", { class: "die", "data-die": i,
    onclick: () => { roll[i] = faces[(faces.indexOf(roll[i]) + 1) % faces.length]; draw(view, false); } },
    String(w)));
  return h("div", {}, h("h3", {}, t("enter_dice")), h("p", { class: "hint" }, t("dice_hint")),
    h("div", { class: "dice" }, dice),
    h("button", { class: "primary", id: "roll-done", onclick: () => sendPlay(play) }, t("roll_done")),
    h("button", { id: "unstage", onclick: () => { chosenPlay = null; send("/api/command/unstage"); } },
      t("cancel")));
}

function choosePlay(play) {
  chosenPlay = play.cards.join(",");
  chosenPlace = 0;
  roll = [];
  const body = { seat: view.to_move, cards: play.cards };
  if (play.placements) body.place = play.placements[0];
  if (pin) send("/api/command/stage", body);  // every phone then shows this computed move
  draw(view, false);
}

function choosePlace(index) {
  chosenPlace = index;
  const play = currentPlay(view);
  if (pin && play && play.placements) {
    send("/api/command/stage", { seat: view.to_move, cards: play.cards, place: play.placements[index] });
  }
  draw(view, false);
}

async function sendPlay(play) {
  const body = { seat: view.to_move, cards: play.cards, roll };
  if (play.placements) body.place = play.placements[chosenPlace] || play.placements[0];
  const done = await send("/api/command/play", body);
  if (done) {
    chosenPlay = null;
    roll = [];
    draw(view, false);
  }
}

function doLaura(action) {
  const seat = view.to_move;
  if (action.kind === "pass") return send("/api/command/pass", { seat });
  if (action.kind === "chaos") return send("/api/command/chaos", { seat, cards: action.cards });
  const body = { seat, cards: action.cards, roll: [] };
  if (action.place) body.place = action.place;
  return send("/api/command/play", body);
}

// --- after the dice -------------------------------------------------------------------------

function drawLast(v, replay) {
  const box = document.getElementById("last");
  const last = v.last;
  box.hidden = !last;
  if (!last) return;
  const items = [];
  if (last.played.length) {
    const wheels = (last.roll || []).reduce((a, b) => a + b, 0);
    items.push(h("li", {}, bdi(last.name), ": ", chips(last.played),
      last.roll ? ` · ${last.roll.join(" + ")} = ${wheels}` : ""));
  }
  if (last.moved) {
    // Cards counted from 1 as the log counts them, on the railway as it was when the caboose
    // moved; penalty cards taken from the back then renumber it, as the drawing shows.
    const steps = last.moved.to - last.moved.from;
    const reached = last.moved.to + 1;
    const now = v.railway.caboose + 1;
    items.push(h("li", { id: "moved" },
      steps ? t("moved", { n: steps, b: reached }) : t("stayed", { a: reached }),
      now === reached ? null : ` ${t("now_card", { b: now })}`));
  }
  if (last.kind === "play") {
    items.push(h("li", { id: "derail", class: last.derailed ? "derailed" : "" },
      last.derailed ? t("derailed", { n: last.derailed }) : t("no_derail")));
  }
  if (last.broken.length) items.push(h("li", {}, t("broken", { cards: cardsWords(last.broken) })));
  if (last.reshuffled) items.push(h("li", {}, t("reshuffled")));
  for (const took of last.took) {
    items.push(h("li", { class: "took" }, isolateNames(t("took", { name: last.name,
      card: cardWords(took.card), source: t(`source_${took.source}`), cause: t(`cause_${took.cause}`) }))));
  }
  for (const card of last.banked) items.push(h("li", {}, t("banked", { card: cardWords(card) })));
  for (const [a, b] of last.cancelled) {
    items.push(h("li", { class: "cancelled" }, t("cancelled", { a: cardWords(a), b: cardWords(b) })));
  }
  if (last.forgiven) items.push(h("li", {}, t("forgiven", { n: last.forgiven })));
  const parts = [h("h2", {}, `${t("last_turn")} (${last.number})`),
    h("ul", { id: "last-list", "data-kiosk-cut": "2" }, items)];
  if (last.order && !KIOSK) {  // the screen beside the table shows the piles it made
    parts.push(h("h3", {}, t("order")), h("div", { id: "order" }, chips(last.order)));
    if (!replay && last.order_options.length > 1) {
      parts.push(h("div", { id: "order-options" }, h("div", {}, t("order_choose")),
        last.order_options.map((o) => h("button", {
          class: o.chosen ? "chosen" : "", "data-order": o.order.join(","),
          onclick: () => send("/api/command/order", { order: o.order, turn: last.number }),
        }, chips(o.order), ` → ${t("order_result", { pile: cardsWords(o.pile) || "∅", n: o.points })}`))));
    }
  }
  if (!replay && !KIOSK && last.roll && last.roll.length) parts.push(correctRoll(last));
  box.replaceChildren(...parts);
}

// A correction being made outlives a redraw of the last turn (another phone's pass, a seat
// joining): it stays open with the dice tapped so far until that turn's roll changes.
let correcting = null; // { turn: "number:roll", fixed: [wheels, ...], open }

function correctRoll(last) {
  const faces = (view.choices && view.choices.faces) || [0, 1, 2];
  const turn = `${last.number}:${last.roll.join(",")}`;
  if (!correcting || correcting.turn !== turn) correcting = { turn, fixed: [...last.roll], open: false };
  const fixed = correcting.fixed;
  const dice = fixed.map((w, i) => h("button", { class: "die", "data-fix": i,
    onclick: (e) => { fixed[i] = faces[(faces.indexOf(fixed[i]) + 1) % faces.length]; e.target.textContent = fixed[i]; } },
    String(w)));
  const fold = h("details", { id: "correct", open: correcting.open }, h("summary", {}, t("correct_roll")),
    h("p", { class: "hint" }, t("dice_hint")), h("div", { class: "dice" }, dice),
    h("button", { id: "correct-send", onclick: async () => {
      const answer = await send("/api/command/correct", { roll: fixed, turn: last.number });
      if (answer && answer.needsConfirm) {
        const text = t("correct_confirm", { n: last.number, a: last.roll.join(","), b: fixed.join(",") });
        if (window.confirm(text)) send("/api/command/correct", { roll: fixed, confirm: true, turn: last.number });
      }
    } }, t("correct_roll")));
  const kept = correcting;
  fold.addEventListener("toggle", () => { kept.open = fold.open; });
  return fold;
}

// --- piles, ranking ------------------------------------------------------------------------

function drawPiles(v) {
  const box = document.getElementById("piles");
  if (KIOSK) {
    box.replaceChildren(h("h2", {}, t("piles")), ...v.players.map(kioskPile));
    return;
  }
  box.replaceChildren(h("h2", {}, t("piles")), ...v.players.map((p) => h("div", {
    class: `player${p.to_move ? " to-move" : ""}`, "data-seat": p.seat },
    h("div", {}, h("bdi", { class: "name" }, p.name), " · ",
      h("strong", { class: "score" }, t("score", { n: p.score })), " · ",
      t("hand_size", { n: p.hand_size }),
      p.derailments ? h("span", { class: "derailed" },
        ` · ${t("derailments", { n: p.derailments })}`) : null),
    // An empty pile says so (every pile at the start), not a label over nothing.
    h("div", { class: "pile" }, p.pile.length ? [h("small", {}, `${t("pile")}: `), chips(p.pile)]
      : h("small", {}, t("pile_empty"))),
    p.banked.length ? h("div", { class: "banked" }, h("small", {}, `${t("banked_cards")}: `),
      chips(p.banked, "banked")) : null,
    p.hand && p.hand.length ? h("div", { class: "final-hand" },
      h("small", {}, `${t("final_hand")}: `), chips(p.hand)) : null)));
}

// A player's line on the screen beside the table: name, score and derailments big, then
// the pile from its top (the newest card) down, cut to what fits.
function kioskPile(p) {
  return h("div", { class: `player${p.to_move ? " to-move" : ""}`, "data-seat": p.seat },
    h("bdi", { class: "name" }, p.name), " · ", h("strong", { class: "score" }, t("score", { n: p.score })),
    p.derailments ? h("span", { class: "derailed" }, ` · ${t("derailments", { n: p.derailments })}`) : null,
    " ", h("span", { class: "cards pile", "data-kiosk-cut": "2" }, [...p.pile].reverse().map((c) => cardChip(c))));
}

function drawRanking(v) {
  const box = document.getElementById("ranking");
  box.hidden = !v.ranking;
  if (!v.ranking) return;
  const r = v.ranking;
  box.replaceChildren(h("h2", {}, t("ranking")),
    h("p", { class: "winner", id: "winners" },
      isolateNames(t("winners", { names: r.winners.join(" & ") || t("nobody") })), " — ",
      t("decided_by", { how: t(`by_${r.decided_by}`) })),
    h("table", {}, r.rows.map((row) => h("tr", {},
      h("td", {}, String(row.place)), h("td", {}, bdi(row.name)),
      h("td", {}, t("score", { n: row.score })), h("td", {}, t("k_cards", { n: row.cards }))))));
}

window.gamePage = {
  draw: drawGame,
  forget() {
    chosenPlay = null;
  },
};

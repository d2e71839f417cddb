// Yardmaster Express's page: draws whose turn it is and the round, the caboose card, the
// mover's hand (on their phone, after a tap) with every way each card may be added, every
// train as it lies with its longest run marked, each score with its parts, the strategic
// variant's totals and the ranking, and says what their buttons post. It runs after the page's shell
// (web/static/shell.js, whose top comment is the contract between the two) and uses its
// helpers; no rules live here: every number, every legal way and every reason comes with the
// view (companion/games/yardmaster/view.py).
"use strict";

let choicesOpen = false; // the cards to tap, folded away while a camera follows the table
const YM_SECTIONS = ["ym-status-section", "ym-move", "ym-trains-section", "ym-strategic", "ym-ranking"];

// One railcar: its colour as a colour and a pattern (class rc-<letter>) and as its letter,
// and its value, so a colour-blind player reads it as well as anyone.
function railcar(r, extra = "") {
  return h("span", { class: `rc rc-${r.colour}${r.run ? " run" : ""} ${extra}`,
    title: `${r.name} ${r.value}`, "data-colour": r.colour },
    h("span", { class: "rc-letter" }, r.initial || r.colour), h("span", { class: "rc-value" }, String(r.value)));
}

// A card of a train as it lies: the engine, a card face down, or a railcar card (turned
// ones marked), with the card added last outlined.
function trainCard(card) {
  const classes = ["ym-card", card.kind, card.newest ? "newest" : "", card.turned ? "turned" : ""];
  const attrs = { class: classes.filter(Boolean).join(" "), "data-code": card.code, role: "listitem" };
  if (card.kind === "engine") return h("span", attrs, h("span", { class: "ym-word" }, t("engine")));
  if (card.kind === "face_down") return h("span", attrs, h("span", { class: "ym-word" }, t("face_down")));
  attrs["data-printed"] = card.printed;
  return h("span", attrs, h("span", { class: "ym-railcars" }, card.railcars.map((r) => railcar(r))),
    card.turned ? h("span", { class: "ym-mark", title: t("turned") }, `⇄ ${t("turned")}`) : null,
    card.newest ? h("span", { class: "ym-mark newest-mark" }, t("newest")) : null);
}

// The shell's `gamePage.draw`: every part of the game, or none when no game is dealt.
function drawYardmaster(v, replay) {
  const playing = Boolean(v && v.game === "yardmaster-express");
  drawSession(playing && !replay ? v.session : null);
  for (const id of YM_SECTIONS) document.getElementById(id).hidden = !playing;
  if (!playing) return false;
  drawStatus(v);
  drawMove(v, replay);
  drawTrains(v);
  drawStrategic(v, replay);
  drawRanking(v, replay);
  return true;
}

function drawStatus(v) {
  const mover = v.to_move === null ? null : v.players[v.to_move];
  const rounds = [t("round_of", { round: v.round, rounds: v.rounds })];
  if (!v.ended) rounds.push(v.rounds_after ? t("rounds_after", { n: v.rounds_after }) : t("last_round"));
  rounds.push(t("draw_left", { n: v.draw }));
  document.getElementById("ym-status").replaceChildren(
    h("div", { class: "to-move", id: "ym-to-move" },
      mover ? isolateNames(t("to_move", { name: mover.name })) : t("game_over")),
    h("div", { id: "ym-round" }, rounds.join(" · ")),
    h("div", { id: "ym-edition" }, v.edition.name, v.strategic ? ` · ${t("variant_strategic")}` : ""));
  const caboose = v.caboose;
  document.getElementById("ym-caboose").replaceChildren(...(caboose ? [
    h("strong", {}, `${t("caboose")}: `), h("span", { id: "ym-caboose-name" }, caboose.name), " — ",
    h("span", { id: "ym-caboose-condition" },
      `${t("caboose_points", { n: caboose.points })} ${caboose.condition}`),
  ] : []));
}

// The ways a card may be added, each a button showing the card as it would lie. A way that
// does not join stays tappable but greyed, its reason said under the card's ways: the table
// itself refuses it (Y-5), so the page never holds a rule of its own.
function wayButton(v, entry, way) {
  const body = { seat: v.to_move, turn: v.turn };
  if (entry.card) body.card = entry.card;
  if (way.way === "turned") body.turned = true;
  if (way.way === "face_down") body.face_down = true;
  const look = way.railcars
    ? h("span", { class: "ym-railcars" }, way.railcars.map((r) => railcar(r)))
    : h("span", { class: "ym-card face_down mini" });  // a card's back: the way says the rest
  return h("button", { type: "button", class: `ym-way${way.legal ? "" : " greyed"}`,
    "aria-describedby": way.why ? whyId(entry, way) : null, "data-card": entry.card || "",
    "data-way": way.way, onclick: () => send("/api/command/add", body) },
  look, h("span", { class: "ym-way-name" }, t(`way_${way.way}`)));
}

function whyId(entry, way) {
  return `ym-why-${entry.card || "any"}-${way.way}`;
}

function drawMove(v, replay) {
  const box = document.getElementById("ym-move");
  // Everyone reads the screen beside the table: whose turn it is shows there, never a hand.
  box.hidden = replay || KIOSK || (v.ended && !v.undo.possible);
  if (box.hidden || v.ended) {
    // Once ended, only the last card may still be taken back: its button alone, beside the
    // ranking rather than inside it.
    box.replaceChildren(...(box.hidden ? [] : [undoButton(v)]));
    return;
  }
  const mover = v.players[v.to_move];
  // A real table's hand is the player's own: the page offers every card it may have been.
  // Else the companion holds it, shown only on the phone of the mover who taps to see it.
  const held = v.provisional ? null : heldHand(v);
  const offered = v.provisional ? v.choices : held ? held.hand : [];
  const asks = v.provisional ? t("choices", { name: mover.name })
    : held ? t("hand", { name: mover.name }) : t("to_move", { name: mover.name });
  const entries = offered.map((entry) => h("div", { class: "ym-entry", "data-entry": entry.card || "" },
    h("span", { class: "ym-code" }, entry.said || t("add_face_down")),
    h("div", { class: "ym-ways" }, entry.ways.map((way) => wayButton(v, entry, way))),
    entry.ways.filter((way) => way.why).map((way) => h("small", { class: "ym-why",
      id: whyId(entry, way), "data-way": way.way }, `${t(`way_${way.way}`)}: ${way.why}`))));
  const reveal = v.provisional ? null : handControls(mover.name, held);
  if (!v.session) {
    box.replaceChildren(h("h2", {}, isolateNames(asks)), reveal, ...entries, undoButton(v));
    return;
  }
  // A camera follows the table: it takes the cards itself, so the ones to tap instead are
  // folded away until a player opens them (and stay open while they choose).
  const fold = h("details", { id: "ym-choices", open: choicesOpen },
    h("summary", {}, isolateNames(asks)), reveal, entries);
  fold.addEventListener("toggle", () => { choicesOpen = fold.open; });
  box.replaceChildren(fold, undoButton(v));
}

function undoButton(v) {
  return h("button", { id: "ym-undo", type: "button", disabled: !v.undo.possible,
    title: v.undo.possible ? null : t("undo_no"), onclick: () => send("/api/command/undo", { turn: v.turn }) },
  t("undo"));
}

function scoreParts(p) {
  const parts = [t("train_value", { n: p.train_value }), t("longest_run", { n: p.longest_run }),
    p.run_bonus ? t("run_bonus", { n: p.run_bonus }) : t("no_run_bonus")];
  if (p.caboose_met !== null) {
    parts.push(p.caboose_met ? t("caboose_met", { n: p.caboose_bonus }) : t("caboose_not_met"));
  }
  if (p.carried) parts.push(t("carried", { n: p.carried }));
  return parts;
}

function drawTrains(v) {
  document.getElementById("ym-longest").textContent = v.longest_run
    ? t("longest_in_game", { n: v.longest_run }) : t("longest_in_game_none");
  document.getElementById("ym-trains").replaceChildren(...v.players.map((p) => h("div", {
    class: `ym-player${p.to_move ? " to-move" : ""}${p.run_bonus ? " bonus" : ""}`, "data-seat": p.seat },
  h("div", { class: "ym-head" }, h("bdi", { class: "name" }, p.name),
    p.start ? h("small", { class: "ym-start" }, ` (${t("start_player")})`) : null, " · ",
    h("strong", { class: "score" }, t("score", { n: p.score }))),
  h("div", { class: "ym-parts" }, scoreParts(p).flatMap((part, i) => [i ? " · " : "",
    h("span", {}, part)])),
  h("div", { class: "ym-train", role: "list", "aria-label": p.name }, p.train.map(trainCard)))));
  // The colours' letters and patterns, said once, for whoever cannot tell them apart.
  document.getElementById("ym-legend").replaceChildren(...v.edition.colours.map((c) =>
    h("span", { class: "ym-legend-item" }, railcar({ colour: c.letter, initial: c.initial, value: "", name: c.name }, "swatch"),
      ` ${c.name}`)));
}

function drawStrategic(v, replay) {
  const box = document.getElementById("ym-strategic");
  const s = v.strategic;
  box.hidden = !s;
  if (!s) return;
  box.classList.toggle("due", s.second_game_due);
  const second = s.game === 2;
  const rows = s.totals.map((row) => h("tr", {}, h("td", {}, bdi(row.name)),
    h("td", {}, String(row.first)), h("td", {}, second ? String(row.second) : "–"),
    h("td", { class: "ym-total" }, String(row.total))));
  const parts = [h("h2", {}, t("strategic", { n: s.game })), h("h3", {}, t("totals")),
    h("div", { class: "ym-table-box" }, h("table", { id: "ym-totals" },
      h("tr", {}, h("th", {}, ""), h("th", {}, t("first_game")), h("th", {}, t("second_game")),
        h("th", {}, t("total"))), rows))];
  if (s.second_game_due) {
    parts.push(h("p", { id: "ym-second-due" }, isolateNames(t("second_due", { name: s.second_starts }))));
    if (!replay && !KIOSK) {
      parts.push(h("button", { id: "ym-next", type: "button", class: "primary",
        onclick: () => send("/api/command/next", {}) }, t("next_game")));
    }
  }
  box.replaceChildren(...parts);
}

function drawRanking(v, replay) {
  const box = document.getElementById("ym-ranking");
  const r = v.ranking;
  box.hidden = !r;
  if (!r) return;
  const parts = [h("h2", {}, v.strategic && v.strategic.game === 1
    ? `${t("ranking")} · ${t("first_game")}` : t("ranking"))];
  if (r.winners.length) {
    parts.push(h("p", { class: "winner", id: "ym-winner" },
      isolateNames(t("winner", { name: r.winners[0] })), " — ", h("span", { id: "ym-decided" }, r.said)));
  }
  parts.push(h("table", { id: "ym-ranking-table" }, r.rows.map((row) => h("tr", {},
    h("td", {}, String(row.place)), h("td", {}, bdi(row.name)),
    h("td", {}, t("score", { n: row.score }))))));
  box.replaceChildren(...parts);
}

// --- the turn at the table (when a camera follows it) ---------------------------------------

function drawSession(session) {
  const box = document.getElementById("session");
  box.hidden = !session;
  if (!session) return;
  const trouble = session.problem || session.camera.length;
  box.className = trouble ? "led-error" : session.awaiting === "confirm" ? "led-needs-confirmation" : "";
  const now = session.problem || session.waiting;
  const message = now ? said(now)
    : session.mover ? t("session_add", { name: session.mover }) : t("game_over");
  const parts = [h("h2", {}, t("session")),
    h("p", { class: `big${session.problem ? " problem" : ""}`, id: "session-message" }, isolateNames(message))];
  if (session.awaiting === "confirm" && session.last) {
    parts.push(h("p", { id: "session-taken" },
      isolateNames(t("session_taken", { name: session.last.name, card: session.last.said }))));
  }
  if (session.camera.length) {
    parts.push(h("div", { id: "session-camera" }, h("h3", {}, t("session_camera")),
      h("ul", {}, session.camera.map((seen) => h("li", {}, said(seen))))));
  }
  parts.push(h("p", {}, h("small", {}, t("session_help"))));
  box.replaceChildren(...parts);
}

window.gamePage = {
  draw: drawYardmaster,
  forget() {},  // nothing is chosen on this page before it is posted
};

// The private advisor: one player's phone. The player picks who they are and taps their
// hand; the hand is kept in this tab's sessionStorage and leaves the phone only in the body
// of POST /api/advise, which answers and forgets it. The page follows the table live
// (/api/events, as the table's page does) and asks again whenever the table's version
// changes, so the advice is always for the table as it is now. Every number shown is the
// server's (web/api.py, the games' advise.py): this script only draws.
"use strict";

const LANG = document.body.dataset.lang;
const T = JSON.parse(document.body.dataset.text);
const STORE = window.sessionStorage;
const $ = (id) => document.getElementById(id);

let view = null; // the table's latest view (/api/state, /api/events)
let answer = null; // the latest advice
let asking = false; // a question is on its way
let askAgain = false; // the table or the hand changed while it was
let retryTimer = null; // after a 429: ask again once the wait is over

// --- words ------------------------------------------------------------------------------

function say(key, params = {}) {
  const one = params.n === 1 && `${key}_one` in T ? `${key}_one` : key;
  return T[one].replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

function el(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  return node;
}

function showError(message) {
  const box = $("error");
  box.textContent = message || "";
  box.hidden = !message;
}

// --- what this phone keeps ----------------------------------------------------------------

function kept(name, fallback) {
  try {
    const value = JSON.parse(STORE.getItem(`advisor.${name}`));
    return value === null ? fallback : value;
  } catch {
    return fallback;
  }
}

function keep(name, value) {
  STORE.setItem(`advisor.${name}`, JSON.stringify(value));
}

function hand() {
  const held = kept("hand", []);
  return Array.isArray(held) ? held.filter((code) => typeof code === "string") : [];
}

function setHand(held) {
  keep("hand", held);
  drawHand();
  ask();
}

// A new game (another game, another number) starts with an empty hand.
function sameGame() {
  const game = `${view.game_kind}:${JSON.stringify(players().map((p) => p.name))}`;
  if (kept("game", null) !== game) {
    keep("game", game);
    keep("hand", []);
  }
}

// --- the table ------------------------------------------------------------------------------

function players() {
  return view && Array.isArray(view.players) ? view.players : [];
}

function people() {
  return players().filter((p) => !p.laura);
}

function onView(next) {
  view = next;
  const noGame = !view || view.game === null || view.game === undefined;
  $("no-game").hidden = !noGame;
  if (noGame) {
    for (const id of ["pick", "hand-section", "advice", "no-hidden-hand"]) $(id).hidden = true;
    return;
  }
  sameGame();
  drawSeats();
  const same = answer && answer.version === view.version && answer.boot === view.boot;
  if (!same || answer.game_kind !== view.game_kind) ask();
}

function drawSeats() {
  const select = $("seat");
  const seats = people();
  let chosen = kept("seat", null);
  if (!seats.some((p) => p.seat === chosen)) chosen = seats.length ? seats[0].seat : null;
  keep("seat", chosen);
  const wanted = seats.map((p) => `${p.seat}:${p.name}`).join("|");
  if (select.dataset.seats !== wanted) {
    select.replaceChildren(...seats.map((p) => {
      const option = el("option", p.name);
      option.value = String(p.seat);
      return option;
    }));
    select.dataset.seats = wanted;
  }
  select.value = String(chosen);
  $("pick").hidden = seats.length === 0;
}

// --- asking ---------------------------------------------------------------------------------

async function ask() {
  if (!view || view.game === null || kept("seat", null) === null) return;
  if (asking) {
    askAgain = true;
    return;
  }
  asking = true;
  askAgain = false;
  document.body.classList.add("asking");
  try {
    const response = await fetch(`/api/advise?lang=${LANG}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ seat: kept("seat", null), hand: hand(), lang: LANG }),
      cache: "no-store",
    });
    const body = await response.json();
    if (response.ok) {
      answer = body;
      showError(null);
      drawAdvice();
    } else {
      showError(body.error && body.error.message);
      $("advice").hidden = true;
      $("hand-section").hidden = false; // the hand stays in sight, to be put right
      drawHand();
      if (response.status === 429 && retryTimer === null) {
        const wait = Number(response.headers.get("Retry-After")) || 1;
        retryTimer = setTimeout(() => { retryTimer = null; ask(); }, wait * 1000);
      }
    }
  } catch {
    showError(say("error_request"));
  } finally {
    asking = false;
    document.body.classList.remove("asking");
    if (askAgain) ask();
  }
}

// --- the hand and its buttons ---------------------------------------------------------------

// How a card is said: in words, as the advice names it (a Caboose card by `names`, "broken
// 2", "chaos card 4", whatever its shape; a railcar card by its two railcars, "red 1 · blue
// 3"), never by its code; several joined by commas.
function cardLabel(code) {
  const railcars = answer && answer.railcars && answer.railcars[code];
  if (railcars) return railcars.map((r) => `${r.name} ${r.value}`).join(" · ");
  const names = (answer && answer.names) || {};
  return names[code.replace(/!$/, "").split("/")[0]] || code;
}

function cardsLabel(codes) {
  return codes.map(cardLabel).join(", ");
}

function cardButton(code, onTap, className) {
  const button = el("button", cardLabel(code), className);
  button.type = "button";
  button.dataset.code = code;
  button.addEventListener("click", onTap);
  return button;
}

function drawHand() {
  const held = hand();
  $("hand").replaceChildren(...held.map((code, index) => cardButton(code, () => {
    const left = hand();
    left.splice(index, 1);
    setHand(left);
  }, "held")));
}

function drawButtons() {
  const groups = answer.cards || [];
  const box = $("buttons");
  const wanted = JSON.stringify(groups);
  if (box.dataset.cards === wanted) return;
  box.dataset.cards = wanted;
  box.replaceChildren();
  // "Tap your cards" only where there are cards to tap.
  $("tap-hint").hidden = !groups.some(({ codes }) => codes.length);
  for (const { group, codes } of groups) {
    const part = el("div", undefined, `group ${group}`);
    part.append(el("h3", T[group] || group));
    const row = el("div", undefined, "cards");
    for (const code of codes) row.append(cardButton(code, () => setHand([...hand(), code]), "add"));
    part.append(row);
    box.append(part);
  }
}

// --- the advice -----------------------------------------------------------------------------

function drawAdvice() {
  const box = $("advice");
  $("no-hidden-hand").hidden = !answer.no_hidden_hand;
  $("hand-section").hidden = Boolean(answer.no_hidden_hand);
  if (answer.no_hidden_hand) {
    $("pick").hidden = true;
    box.hidden = true;
    return;
  }
  drawButtons();
  drawHand();
  const parts = [el("p", answer.to_move ? say("your_turn") : say("not_your_turn", { mover: answer.mover }), "turn")];
  if (answer.ways) parts.push(...yardmaster());
  else parts.push(...caboose());
  box.replaceChildren(...parts);
  box.hidden = false;
}

function bestLine(label, reason, tied) {
  const line = el("p", undefined, "best-line");
  line.append(el("strong", `${T.best}: ${label}`), el("span", ` — ${T[`reason_${reason}`] || reason}`));
  if (tied && tied.length) line.append(el("span", ` (${say("tied", { plays: tied.join(", ") })})`, "tied"));
  return line;
}

function caboose() {
  const parts = [];
  const best = answer.best;
  const bestLabel = best.kind === "pass" ? T.pass : cardsLabel(best.cards);
  parts.push(bestLine(bestLabel, best.reason, best.tied.map(cardsLabel)));
  parts.push(el("p", `${say("front", { card: cardLabel(answer.front) })} · ${say("pile", { points: answer.points })}`, "table"));
  parts.push(el("h2", T.plays));
  if (!answer.plays.length) parts.push(el("p", T.no_plays));
  const list = el("ul", undefined, "plays");
  for (const play of answer.plays) list.append(playItem(play));
  parts.push(list);
  parts.push(el("h2", T.pass));
  const passing = answer.pass;
  const pass = el("p", say("pass_cost", { n: passing.cards }), passing.best ? "pass best" : "pass");
  if (passing.broken) pass.append(` ${T.pass_broken}`);
  if (passing.points !== null) {
    // A pile that shrinks: the card taken cancelled one of it (said, or the number looks wrong).
    const key = passing.points < answer.points ? "pass_pile_cancels" : "pass_pile";
    pass.append(` · ${say(key, { points: passing.points })}`);
  }
  parts.push(pass);
  if (answer.chaos.length) {
    parts.push(el("h2", T.chaos_cards));
    const chaos = el("ul", undefined, "chaos");
    for (const card of answer.chaos) {
      const words = card.combines
        ? say("chaos_combines", { card: cardLabel(card.card), top: cardLabel(card.combines), change: card.change })
        : say("chaos_lies", { card: cardLabel(card.card), change: card.change });
      chaos.append(el("li", words));
    }
    const all = answer.chaos_all;
    if (all) chaos.append(el("li", say("chaos_all", { order: cardsLabel(all.order), change: all.change }), "all"));
    parts.push(chaos);
  }
  return parts;
}

function playItem(play) {
  const item = el("li", undefined, play.best ? "play best" : "play");
  item.dataset.cards = play.cards.join(" ");
  const head = el("div", undefined, "head");
  head.append(el("strong", cardsLabel(play.cards), "cards-played"));
  head.append(el("span", play.dice === 1 ? say("dice_one") : say("dice", { n: play.dice }), "dice"));
  if (play.best) head.append(el("span", T.best, "badge"));
  item.append(head);
  item.append(el("div", say("derail", play.p_derail), "derail"));
  item.append(el("div", say("expected", { value: play.expected.value }), "expected"));
  if (!play.fits) item.append(el("div", T.fits_nowhere, "warn"));
  if (play.outcomes.length) {
    const more = el("details");
    more.append(el("summary", T.penalties));
    if (!answer.orders) more.append(el("p", T.cancel_at_once));
    for (const outcome of play.outcomes) {
      const chance = `${outcome.chance.num}/${outcome.chance.den}`;
      const taken = outcome.taken ? cardsLabel(outcome.taken) : "";
      more.append(el("p", say("taken", { n: outcome.cards, chance, cards: taken }), "taken"));
      const orders = el("ul", undefined, "orders");
      (outcome.orders || []).forEach((order, index) => {
        const params = { order: cardsLabel(order.order), points: order.points };
        orders.append(el("li", say(index === 0 ? "order_best" : "order", params)));
      });
      more.append(orders);
    }
    item.append(more);
  }
  return item;
}

function yardmaster() {
  const parts = [];
  const wayWords = { printed: T.way_up, turned: T.way_turned, face_down: T.way_down };
  const label = (card, way) => `${cardLabel(card)} (${wayWords[way]})`;
  parts.push(el("p", say("train_value", { score: answer.score, run: answer.longest_run }), "table"));
  if (answer.best) {
    const tied = answer.best.tied.map(([card, way]) => label(card, way));
    parts.push(bestLine(label(answer.best.card, answer.best.way), answer.best.reason, tied));
  }
  const list = el("ul", undefined, "ways");
  for (const way of answer.ways) {
    const item = el("li", undefined, way.best ? "way best" : "way");
    item.dataset.card = way.card;
    item.dataset.way = way.way;
    const head = el("div", undefined, "head");
    head.append(el("strong", label(way.card, way.way)));
    if (way.best) head.append(el("span", T.best, "badge"));
    item.append(head);
    item.append(el("div", say("score", way.score), "score"));
    item.append(el("div", say("run", way.run), "run"));
    list.append(item);
  }
  parts.push(list);
  return parts;
}

// --- wiring ---------------------------------------------------------------------------------

$("seat").addEventListener("change", (event) => {
  keep("seat", Number(event.target.value));
  ask();
});
$("clear").addEventListener("click", () => setHand([]));

fetch(`/api/state?lang=${LANG}`)
  .then((response) => response.json())
  .then(onView)
  .catch(() => showError(say("error_request")));

const source = new EventSource(`/api/events?lang=${LANG}`);
source.addEventListener("state", (event) => onView(JSON.parse(event.data)));

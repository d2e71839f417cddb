// The private advisor's drawing of a Caboose hand's advice (companion/games/caboose/
// advise.py): every play with its dice, its chance of derailing and its expected penalty,
// the best marked, passing, the chaos cards. Registered as `window.gameAdvisor`, drawn
// with the advisor's shell (web/static/advisor.js, whose top comment says the contract).
"use strict";

window.gameAdvisor = {
  // A card by `names`, "broken 2", "chaos card 4", whatever its shape.
  cardLabel(code) {
    const names = (answer && answer.names) || {};
    return names[code.replace(/!$/, "").split("/")[0]] || code;
  },
  draw: caboose,
  // Laura, the solo variant's automaton, holds no hand to advise on.
  seated: (player) => !player.laura,
};

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
  const item = el("li", undefined, play.best ? "choice play best" : "choice play");
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

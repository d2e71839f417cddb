// The private advisor's drawing of a Yardmaster Express hand's advice (companion/games/
// yardmaster/advise.py): the train's value now, then each card of the hand each way it may
// be added, with the score and the longest cargo run it leaves, the best marked.
// Registered as `window.gameAdvisor`, drawn with the advisor's shell (web/static/
// advisor.js, whose top comment says the contract).
"use strict";

window.gameAdvisor = {
  // A railcar card by its two railcars, "red 1 · blue 3".
  cardLabel(code) {
    const railcars = answer && answer.railcars && answer.railcars[code];
    return railcars ? railcars.map((r) => `${r.name} ${r.value}`).join(" · ") : code;
  },
  draw: yardmaster,
};

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
    const item = el("li", undefined, way.best ? "choice way best" : "choice way");
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

// The family's own pip dice taught from the PIN holder's phone (web/pips_teach.py): while
// the table is set up for a game whose camera reads them (index.html's #pips-teach names
// them), one die is laid alone on the table showing each face in turn and looked at; the
// die as the camera cut it out shows beside its face, and Save writes the six into the
// table's folder. Never on the screen beside the table (the page does not load this script
// there). Uses the shell's `t`, `h` and `pin`, and teach.js's `boardGame` (the game the
// table is set up for), `lookAtFace`, `saveFaces` and `whenTheGameMayChange`.
"use strict";

const pipUrls = {};  // face -> the object URL of its picture, once learnt

function drawPipFaces(learnt) {
  const list = document.getElementById("pips-faces");
  list.replaceChildren(...[1, 2, 3, 4, 5, 6].map((n) => h("li", { "data-pips": n },
    pipUrls[n] ? h("img", { src: pipUrls[n], alt: t("pips_face", { n }), class: "pips-die" })
      : h("span", { class: "pips-die empty" }, String(n)),
    h("span", { class: "pips-name" }, t("pips_face", { n })),  // t: pips_face_one for 1
    h("button", { type: "button", onclick: () => lookAtDie(n) }, t("pips_look")))));
  document.getElementById("pips-progress").textContent = t("pips_progress", { done: learnt.length });
}

async function lookAtDie(n) {
  const learnt = await lookAtFace("/api/setup/pips", { pips: n }, `/api/setup/pips/${n}.jpg`,
    pipUrls, n, "pips-said", t("pips_looking"));
  if (learnt) drawPipFaces(learnt);
}

// The step is shown while the table is set up for a game whose camera reads pip dice.
function showPipStep() {
  const step = document.getElementById("pips-teach");
  step.hidden = !pin || !step.dataset.games.split(" ").includes(boardGame());
}

function setupPipStep() {
  document.getElementById("pips-save").addEventListener("click",
    () => saveFaces("/api/setup/pips/save", "pips-saved"));
  drawPipFaces([]);
  whenTheGameMayChange(showPipStep);
}

document.addEventListener("DOMContentLoaded", setupPipStep);

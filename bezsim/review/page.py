"""A game review as one HTML file that works offline: the review's JSON, the styles and the
script that draws it are all inside the page, and it loads nothing from anywhere.

The page draws the reviewed seat's table at each decision (its hand, the trick, what is
shown on the table, trumps, stock and scores), the values of the decision's options as bars
with their 95% intervals, the loss over the game as a chart and each seat's summary. Buttons
and the arrow keys step through the decisions (Home and End jump to the first and last, M to
the next decision that lost points).
"""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bezsim.review.game_review import Review


def review_page(review: Review) -> str:
    """The page of ``review``, as text."""
    data = json.dumps(review.as_json(), ensure_ascii=False)
    # inside <script> only "</" can end the element early; "<\\/" reads the same in JSON
    data = data.replace("</", "<\\/")
    rules = review.record.rules
    dealt = ("the record's packs" if review.record.packs is not None
             else f"seed {review.record.seed}, game {review.record.game}")
    title = f"bezsim review: {rules.variant}, {dealt}"
    return (_TEMPLATE.replace("%TITLE%", html.escape(title))
            .replace("%STYLE%", _STYLE).replace("%SCRIPT%", _SCRIPT)
            .replace("%DATA%", data))


def write_review_page(review: Review, path: str | Path) -> Path:
    """Write the page of ``review`` to ``path`` (UTF-8) and return the path."""
    path = Path(path)
    path.write_text(review_page(review), encoding="utf-8")
    return path


_TEMPLATE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>%TITLE%</title>
<style>%STYLE%</style>
</head>
<body>
<header>
  <h1 id="title"></h1>
  <p id="subtitle"></p>
</header>
<main>
  <section id="summary" aria-label="Each seat's summary"></section>
  <section id="chart" aria-label="Loss over the game"></section>
  <nav id="controls" aria-label="Step through the decisions">
    <button id="first" title="First decision (Home)">first</button>
    <button id="prev" title="Previous decision (left arrow)">&#x25C0;</button>
    <span id="position"></span>
    <button id="next" title="Next decision (right arrow)">&#x25B6;</button>
    <button id="last" title="Last decision (End)">last</button>
    <button id="next-loss" title="Next decision that lost points (M)">next loss</button>
  </nav>
  <section id="decision" aria-live="polite">
    <h2 id="heading"></h2>
    <div id="table"></div>
    <div id="options"></div>
    <p id="verdict"></p>
  </section>
</main>
<footer><p id="method"></p></footer>
<script type="application/json" id="review-data">%DATA%</script>
<script>%SCRIPT%</script>
</body>
</html>
"""

_STYLE = """
:root { --felt: #1f5d3a; --ink: #1b1b1b; --muted: #666; --bad: #b3261e; --good: #1e6b35;
        --bar: #3a6ea5; --card: #fffdf7; }
* { box-sizing: border-box; }
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 0;
       color: var(--ink); background: #f4f2ec; }
header, main, footer { max-width: 960px; margin: 0 auto; padding: 0 12px; }
h1 { font-size: 1.4rem; margin: 16px 0 4px; }
h2 { font-size: 1.1rem; margin: 8px 0; }
#subtitle, footer { color: var(--muted); }
table.summary { border-collapse: collapse; width: 100%; margin: 8px 0; background: #fff; }
table.summary th, table.summary td { border: 1px solid #ddd; padding: 4px 8px;
                                     text-align: right; }
table.summary th:first-child, table.summary td:first-child { text-align: left; }
p.note { color: var(--muted); margin: 12px 0 0; }
#chart svg { width: 100%; height: 160px; background: #fff; border: 1px solid #ddd;
             cursor: pointer; }
nav { display: flex; gap: 6px; align-items: center; margin: 10px 0; flex-wrap: wrap; }
nav button { font-size: 1rem; padding: 4px 10px; }
#position { min-width: 9em; text-align: center; }
#table { background: var(--felt); color: #fff; border-radius: 10px; padding: 10px;
         display: grid; gap: 6px; }
.row { display: flex; flex-wrap: wrap; gap: 6px; align-items: center; }
.row > .what { min-width: 7.5em; opacity: 0.85; }
.card { display: inline-block; background: var(--card); color: #111; border-radius: 5px;
        border: 1px solid #bbb; padding: 6px 6px; min-width: 2.6em; text-align: center;
        font-weight: 600; font-size: 1.05rem; }
.card.red { color: #c0161b; }
.card.played { outline: 3px solid #ffcc33; }
.card.best { box-shadow: 0 0 0 3px #7fd1ff; }
.facts { display: flex; flex-wrap: wrap; gap: 14px; }
#options svg { width: 100%; background: #fff; border: 1px solid #ddd; }
#options text { font-size: 12px; }
.verdict-loss { color: var(--bad); font-weight: 600; }
.verdict-ok { color: var(--good); font-weight: 600; }
@media (max-width: 520px) { .row > .what { min-width: 100%; } .card { min-width: 2.2em; } }
"""

_SCRIPT = r"""
"use strict";
const data = JSON.parse(document.getElementById("review-data").textContent);
const decisions = data.decisions;
const $ = (id) => document.getElementById(id);
const RED = new Set(["\u2665", "\u2666"]);
let at = 0;

function el(tag, attrs, text) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}
function svg(tag, attrs, text) {
  const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}
function fmt(x) { return (x >= 0 ? "+" : "") + x.toFixed(1); }
function seatName(s) {
  const who = data.players[s];
  return "seat " + s + (who ? " (" + who + ")" : "");
}
function cardOf(name) { return name.split(" ")[0]; }
function cardNode(name, classes) {
  const suit = name.slice(-1);
  const node = el("span", {class: "card" + (RED.has(suit) ? " red" : "") +
                               (classes ? " " + classes : "")}, name);
  node.dataset.card = name;
  return node;
}
function row(what, cards, mark) {
  const r = el("div", {class: "row"});
  r.appendChild(el("span", {class: "what"}, what));
  if (!cards.length) r.appendChild(el("span", {}, "\u2014"));
  for (const c of cards) r.appendChild(cardNode(c, mark ? mark(c) : ""));
  return r;
}

function header() {
  const d = data.deal;
  $("title").textContent = "Game review: " + data.variant.replace(/_/g, " ") + " b\u00e9zique";
  $("subtitle").textContent = (d.packs ? "dealt from the record's packs" :
    "seed " + d.seed + ", game " + d.game) + "; players " +
    data.players.map((p, s) => s + ": " + (p || "a person")).join(", ") +
    "; final scores " + data.scores.join(" \u2013 ");
  $("method").textContent = "Values: the expected " + data.unit + " to the deciding side, " +
    data.deals + " sampled deals of the cards the seat could not see (exact in two-handed " +
    "stage 2), with 95% intervals; search's choice is the reference. Labels from a loss of " +
    Object.entries(data.labels).map(([k, v]) => k + " " + v).join(", ") + ".";
}

function summary() {
  const t = el("table", {class: "summary"});
  const head = el("tr");
  for (const h of ["seat", "decisions", "forced", "expected loss", "a hand", "accuracy",
                   "inaccuracies", "mistakes", "blunders"]) head.appendChild(el("th", {}, h));
  t.appendChild(head);
  for (const s of data.summaries) {
    const r = el("tr");
    const cells = [seatName(s.seat), s.decisions, s.forced, s.total_loss.toFixed(1),
                   s.loss_per_hand.toFixed(1), s.accuracy.toFixed(0) + "%",
                   s.labels.inaccuracy, s.labels.mistake, s.labels.blunder];
    for (const c of cells) r.appendChild(el("td", {}, String(c)));
    t.appendChild(r);
  }
  $("summary").appendChild(t);
  if (!data.luck || !data.luck.some((s) => s.hands.length)) return;
  const l = el("table", {class: "summary", id: "luck"});
  const lh = el("tr");
  for (const h of ["seat", "result", "= skill", "+ luck", "position", "the deal", "the draws",
                   "+ residue"]) lh.appendChild(el("th", {}, h));
  l.appendChild(lh);
  const sign = (v) => (v >= 0 ? "+" : "") + v.toFixed(1);
  for (const s of data.luck) {
    const r = el("tr");
    for (const c of [seatName(s.seat), sign(s.result), sign(s.skill), sign(s.luck),
                     sign(s.position), sign(s.deal), sign(s.draws), sign(s.residue)])
      r.appendChild(el("td", {}, c));
    l.appendChild(r);
  }
  $("summary").appendChild(el("p", {class: "note"}, "Where the result came from, in " +
    data.unit + " over the finished hands: skill (the reviewed seats' losses, for or " +
    "against the seat), luck (the seat's expectation before its cards, then what the cards " +
    "dealt and drawn were worth to whoever received them) and a residue neither explains."));
  $("summary").appendChild(l);
}

const COLOURS = ["#3a6ea5", "#b3261e", "#1e6b35", "#8a5a00"];
function chart() {
  const W = 900, H = 160, pad = 28;
  const box = svg("svg", {viewBox: "0 0 " + W + " " + H, role: "img",
                          "aria-label": "expected loss over the game, each reviewed seat"});
  const totals = {};
  const paths = {};
  for (const s of data.seats) { totals[s] = 0; paths[s] = [[0, 0]]; }
  decisions.forEach((d, i) => {
    totals[d.seat] += d.loss;
    paths[d.seat].push([i + 1, totals[d.seat]]);
  });
  const top = Math.max(1, ...Object.values(totals));
  const x = (i) => pad + (W - 2 * pad) * i / Math.max(1, decisions.length);
  const y = (v) => H - pad + (2 * pad - H) * v / top;
  box.appendChild(svg("line", {x1: pad, y1: y(0), x2: W - pad, y2: y(0), stroke: "#999"}));
  box.appendChild(svg("text", {x: 2, y: y(top) + 4}, top.toFixed(0)));
  box.appendChild(svg("text", {x: 2, y: y(0) + 4}, "0"));
  data.seats.forEach((s, k) => {
    const points = paths[s].map(([i, v]) => x(i) + "," + y(v)).join(" ");
    box.appendChild(svg("polyline", {points: points, fill: "none", "stroke-width": 2,
                                     stroke: COLOURS[k % COLOURS.length]}));
    box.appendChild(svg("text", {x: W - pad - 120, y: 16 + 14 * k,
                                 fill: COLOURS[k % COLOURS.length]},
                        seatName(s) + ": " + totals[s].toFixed(1)));
  });
  const cursor = svg("line", {id: "cursor", y1: pad / 2, y2: H - pad / 2, stroke: "#f0a000",
                              "stroke-width": 2});
  box.appendChild(cursor);
  box.addEventListener("click", (ev) => {
    const r = box.getBoundingClientRect();
    const i = Math.round(((ev.clientX - r.left) * W / r.width - pad) /
                         (W - 2 * pad) * decisions.length) - 1;
    show(Math.min(decisions.length - 1, Math.max(0, i)));
  });
  $("chart").appendChild(box);
}

function table(d) {
  const v = d.view;
  const box = $("table");
  box.replaceChildren();
  const facts = el("div", {class: "facts"});
  const parts = ["hand " + d.hand, "trick " + d.trick,
                 "trumps " + (v.trumps || "not yet"),
                 v.turn_up ? "turn-up " + v.turn_up : null,
                 "stock " + v.stock_left,
                 "scores " + v.scores.join(" \u2013 "),
                 "this hand " + v.hand_points.join(" \u2013 ")];
  for (const p of parts) if (p) facts.appendChild(el("span", {}, p));
  box.appendChild(facts);
  const played = cardOf(d.played);
  const best = cardOf(d.best);
  const mark = (c) => (d.kind === "play" && c === played ? "played" : "") +
                      (d.kind === "play" && c === best ? " best" : "");
  box.appendChild(row("trick", v.trick));
  box.appendChild(row(seatName(d.seat) + "'s hand", v.hand, mark));
  if (v.on_table.length) box.appendChild(row("of it, on the table", v.on_table));
  for (const [s, cards] of Object.entries(v.shown_by || {}))
    box.appendChild(row("seat " + s + " has shown", cards));
  for (const [s, cards] of Object.entries(v.open_cards || {}))
    box.appendChild(row("seat " + s + " open", cards));
  for (const [s, items] of Object.entries(v.to_score || {}))
    for (const item of items)
      box.appendChild(row("seat " + s + " to score " + item.kind.replace(/_/g, " "), item.cards));
}

function options(d) {
  const box = $("options");
  box.replaceChildren();
  if (d.forced) { box.appendChild(el("p", {}, "Only one option: " + d.played + ".")); return; }
  const opts = d.options;
  const rowH = 26, left = 200, right = 160, W = 900, H = rowH * opts.length + 30;
  // the axis spans the options' intervals (and a margin), so that their differences show
  const low = Math.min(...opts.map((o) => o.low)), high = Math.max(...opts.map((o) => o.high));
  const pad = Math.max(1, 0.15 * (high - low));
  const lo = low - pad, hi = high + pad / 3;
  const span = Math.max(1e-9, hi - lo);
  const x = (v) => left + (W - left - right) * (Math.min(hi, Math.max(lo, v)) - lo) / span;
  const graph = svg("svg", {viewBox: "0 0 " + W + " " + H, role: "img",
                            "aria-label": "the options' values with 95% intervals"});
  graph.appendChild(svg("text", {x: left, y: H - 6}, fmt(lo)));
  graph.appendChild(svg("text", {x: W - right - 40, y: H - 6}, fmt(hi)));
  if (lo < 0 && hi > 0)
    graph.appendChild(svg("line", {x1: x(0), y1: 4, x2: x(0), y2: H - 22, stroke: "#999"}));
  opts.forEach((o, k) => {
    const y = 8 + k * rowH;
    const g = svg("g", {class: "option", "data-option": o.option});
    const tags = (o.option === d.played ? "  \u25C0 played" : "") +
                 (k === opts.findIndex((p) => p.option === d.best) ? "  \u2605 search" : "");
    g.appendChild(svg("text", {x: 4, y: y + 14}, o.option));
    const a = x(lo), b = x(o.value);
    g.appendChild(svg("rect", {x: a, y: y + 3, width: Math.max(1, b - a), height: rowH - 10,
                               fill: o.option === d.played ? "#f0a000" : "#3a6ea5",
                               opacity: 0.8}));
    g.appendChild(svg("line", {x1: x(o.low), x2: x(o.high), y1: y + 9, y2: y + 9,
                               stroke: "#111", "stroke-width": 1.5}));
    for (const end of [o.low, o.high])
      g.appendChild(svg("line", {x1: x(end), x2: x(end), y1: y + 4, y2: y + 14, stroke: "#111"}));
    g.appendChild(svg("text", {x: W - right + 6, y: y + 14},
                      fmt(o.value) + (o.loss > 0 ? "  loss " + o.loss.toFixed(1) : "") + tags));
    graph.appendChild(g);
  });
  box.appendChild(graph);
}

function show(i) {
  if (!decisions.length) return;
  at = Math.min(decisions.length - 1, Math.max(0, i));
  const d = decisions[at];
  $("position").textContent = "decision " + (at + 1) + " of " + decisions.length;
  $("heading").textContent = "Hand " + d.hand + ", trick " + d.trick + ": " + seatName(d.seat) +
    (d.kind === "play" ? " plays " : " declares ") + d.played;
  table(d);
  options(d);
  const verdict = $("verdict");
  if (d.loss > 0) {
    verdict.className = "verdict-loss";
    verdict.textContent = (d.label ? d.label[0].toUpperCase() + d.label.slice(1) + ": " : "") +
      "expected loss " + d.loss.toFixed(1) + " against " + d.best + ".";
  } else {
    verdict.className = "verdict-ok";
    verdict.textContent = d.forced ? "Forced." : "No measurable loss.";
  }
  const W = 900, pad = 28;
  const cx = pad + (W - 2 * pad) * (at + 1) / Math.max(1, decisions.length);
  $("cursor").setAttribute("x1", cx);
  $("cursor").setAttribute("x2", cx);
  $("prev").disabled = at === 0;
  $("first").disabled = at === 0;
  $("next").disabled = at === decisions.length - 1;
  $("last").disabled = at === decisions.length - 1;
}

function nextLoss() {
  for (let i = at + 1; i < decisions.length; i++) if (decisions[i].loss > 0) return show(i);
}

header();
summary();
chart();
$("first").onclick = () => show(0);
$("prev").onclick = () => show(at - 1);
$("next").onclick = () => show(at + 1);
$("last").onclick = () => show(decisions.length - 1);
$("next-loss").onclick = nextLoss;
document.addEventListener("keydown", (ev) => {
  if (ev.key === "ArrowRight") show(at + 1);
  else if (ev.key === "ArrowLeft") show(at - 1);
  else if (ev.key === "Home") show(0);
  else if (ev.key === "End") show(decisions.length - 1);
  else if (ev.key === "m" || ev.key === "M") nextLoss();
  else return;
  ev.preventDefault();
});
if (decisions.length) show(0);
else $("heading").textContent = "No decision of the reviewed seats in this game.";
"""

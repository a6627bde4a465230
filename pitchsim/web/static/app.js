// pitchsim's web table: Play, Review and Odds over the JSON API (pitchsim/web/app.py).
"use strict";

const SUITS = { C: "♣", D: "♦", H: "♥", S: "♠" };
const SUIT_WORDS = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };
const JOKERS = { HJ: "high joker", LJ: "low joker" };
const SVG = "http://www.w3.org/2000/svg";
let game = null; // the game's last state
let lastView = null; // the last view the person was asked about (the table's seats)
let review = null; // the review being stepped through, and where
let options = null;

// ---------------------------------------------------------------- small tools

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === false || v === null || v === undefined) continue;
    if (k === "class") e.className = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat(Infinity)) {  // (lists of cards inside a line's parts)
    if (c === null || c === undefined || c === false) continue;
    e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return e;
}

function $(id) {
  return document.getElementById(id);
}

function showError(message) {
  const box = $("error");
  box.textContent = message || "";
  box.hidden = !message;
}

function known(path, body) {
  // Only the fields the request at ``path`` takes (the server's list, /api/options'
  // ``fields``): the server refuses any other, and a form may hold more than one
  // request reads.
  const names = options && options.fields && options.fields[path];
  if (!names) return body;
  return Object.fromEntries(Object.entries(body).filter(([k]) => names.includes(k)));
}

async function api(path, body) {
  const init = body === undefined ? {} : {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(known(path, body)),
  };
  let response;
  try {
    response = await fetch(path, init);
  } catch (e) {
    throw new Error("the server cannot be reached: " + e.message);
  }
  let doc;
  try {
    doc = await response.json();
  } catch (e) {
    throw new Error(`the server answered ${response.status} without JSON`);
  }
  if (!response.ok) throw new Error(doc.error || `error ${response.status}`);
  return doc;
}

function formValues(form) {
  const out = {};
  for (const e of form.elements) {
    if (!e.name || e.type === "file" || e.disabled) continue;  // a field the form does not offer now
    if (e.type === "checkbox") out[e.name] = e.checked;
    else if (e.value.trim() === "") continue;
    else if (e.type === "number" || e.tagName === "SELECT" && /^\d+$/.test(e.value)) out[e.name] = Number(e.value);
    else out[e.name] = e.value.trim();
  }
  return out;
}

function cardParts(text) {
  const suit = text.slice(-1);
  const rank = text.slice(0, -1);
  return { rank: rank === "T" ? "10" : rank, suit };
}

function card(text, attrs) {
  // A card drawn as a card; a joker as its own; ``trumps``: the named trump's cards
  // (the jick and the jokers among them), each marked as a trump.
  const joker = JOKERS[text];
  const { rank, suit } = cardParts(text);
  const red = joker ? text === "HJ" : suit === "H" || suit === "D";
  const trump = attrs && attrs.trumps && attrs.trumps.includes(text);
  const cls = `card ${red ? "red" : "black"}` + (joker ? " joker" : "") + (trump ? " trump" : "") +
    (attrs && attrs.class ? " " + attrs.class : "");
  const tag = attrs && attrs.button ? "button" : "span";
  const a = Object.assign({}, attrs || {}, { class: cls, "data-card": text, title: attrs && attrs.title || cardTitle(text, trump) });
  delete a.button;
  delete a.trumps;
  if (tag === "button") a.type = "button";
  if (joker) {
    return el(tag, a, el("span", { class: "rank" }, text === "HJ" ? "HI" : "LO"), el("span", { class: "suit" }, "JOKER"));
  }
  return el(tag, a, el("span", { class: "rank" }, rank), el("span", { class: "suit" }, SUITS[suit]));
}

function trickCards(t, n, whoOf, attrs) {
  // A past trick's cards.  Under follow=only a seat out of trump is passed over (4.9),
  // so a card's place no longer says who played it: then each card after the lead
  // names its player, as the terminal does ("HJ, seat 2 5♠").
  const seats = t.seats || [];
  const inTurn = seats.every((s, i) => s === (seats[0] + i) % n);
  return t.cards.map((c, i) => inTurn || i === 0 ? card(c, attrs) :
    [el("span", { class: "player small" }, ` ${whoOf(seats[i])} `), card(c, attrs)]);
}

function cardTitle(text, trump) {
  const name = JOKERS[text] || cardName(text);
  return trump ? name + " (trump)" : name;
}

function cardName(text) {
  if (JOKERS[text]) return text;
  const { rank, suit } = cardParts(text);
  return rank + SUITS[suit];
}

function suitName(letter) {
  return `${SUITS[letter]} ${SUIT_WORDS[letter]}`;
}

function actionName(a) {
  if (a.startsWith("trump:")) return `${suitName(a.slice(-1))} trump`;
  if (a.startsWith("call:")) return `called ${actionName(a.slice(5))}`;  // a partner's card (12.1)
  if (a.startsWith("down:")) return `put down ${actionName(a.slice(5))}`;  // coming down to 6 (12.8.1)
  if (JOKERS[a]) return a;
  return /^[2-9TJQKA]|^10/.test(a) && a.length >= 2 && SUITS[a.slice(-1)] ? cardName(a) : a;
}

function callButton(a) {
  if (a === "pass") return "Pass";
  if (a === "shoot") return "Shoot the moon";
  if (a.startsWith("trump:")) return suitName(a.slice(-1));
  return `Bid ${a}`;
}

function who(s, view) {
  if (s === view.seat) return "you";
  if (view.partnership && s % 2 === view.seat % 2) return `partner (seat ${s})`;
  return `seat ${s}`;
}

function pct(x) {
  return x === null || x === undefined ? "–" : (100 * x).toFixed(1) + "%";
}

function meter(p) {
  // A bar behind a probability (its width set through the DOM: the page's policy
  // forbids inline style attributes).
  const fill = el("span", { class: "fill" });
  fill.style.width = `${Math.max(0, Math.min(1, p)) * 100}%`;
  return el("span", { class: "meter", "aria-hidden": "true" }, fill);
}

function num(x, d = 2) {
  return x === null || x === undefined ? "–" : (x >= 0 ? "+" : "") + x.toFixed(d);
}

// ---------------------------------------------------------------- tabs

function route() {
  const tab = (location.hash || "#play").slice(1);
  for (const name of ["play", "review", "odds"]) {
    $(name).hidden = name !== tab;
    $("nav-" + name).classList.toggle("on", name === tab);
  }
  if (tab === "review") loadSaves();
  if (tab === "odds") oddsFromGame();
}

// ---------------------------------------------------------------- the view, as a table

function renderScores(view, into, final) {
  // The score pills: the view's scores, or at game over ``final``, the final scores
  // (one a seat), which the last view asked of the person does not hold yet.
  const n = view.players;
  const score = (s) => (final ? final[s] : view.scores[s]);
  const scores = into.scores;
  scores.replaceChildren();
  if (view.partnership) {
    const mine = view.seat % 2;
    scores.append(el("span", { class: "score you" }, `your team ${score(mine)}`),
      el("span", { class: "score" }, `them ${score(1 - mine)}`));
  } else {
    for (let s = 0; s < n; s++) {
      scores.append(el("span", { class: "score" + (s === view.seat ? " you" : "") },
        `${who(s, view)} ${score(s)}`));
    }
  }
  // hands=N (12.4): no target counts; the game ends after its last hand
  const goal = view.hands_left != null
    ? `hand ${view.hands_played + 1} of ${view.hands_played + view.hands_left}, then the highest total wins`
    : `to ${view.target}`;
  scores.append(el("span", { class: "target" },
    final ? "final scores" : `${goal} · dealer ${who(view.dealer, view)}`));
}

function renderView(view, into, actions) {
  // Scores, the calls, the contract and the named trump, the draw, the trick in
  // progress and the tricks so far, the hand (trumps first) and the choices.
  const n = view.players;
  renderScores(view, into, null);
  // (a dealer's steal marked "2 (steal)", in the server's words: practice's own)
  const calls = (view.call_words || view.calls).map((c, i) => `${who((view.dealer + 1 + i) % n, view)} ${c}`);
  into.auction.textContent = calls.length ? "Calls: " + calls.join(", ") : "Calls: none yet";
  const trumps = view.trumps || [];
  into.contract.replaceChildren();
  if (view.pitcher !== null) {
    into.contract.append(`Pitcher: ${who(view.pitcher, view)} ` +
      (view.shoot ? (view.pitcher === view.seat ? "shoot the moon" : "shoots the moon") : `for ${view.bid}`));
    if (view.trump) {
      into.contract.append(" · ", el("b", { class: "named-trump", "data-trump": view.trump },
        `trump ${suitName(view.trump)}`));
      if (trumps.length !== 13) {
        into.contract.append(el("div", { class: "muted small trump-order" }, "Trumps high to low: ",
          trumps.map((c) => card(c, { class: "small", trumps }))));
      }
    }
    if (view.called_words) {  // 12.1: the call, heard by all; the partner as you know him
      into.contract.append(el("div", { class: "called-line" }, "Called: ",
        card(view.called, { class: "small", trumps }), " " + view.called_words));
    }
  }
  if (into.draw) into.draw.replaceChildren(...drawLines(view, trumps));
  const done = view.trick_winners.length;
  const current = view.tricks.length > done ? view.tricks[view.tricks.length - 1] : null;
  const seatOf = (t, i) => (t.seats ? t.seats[i] : (t.leader + i) % n);
  into.trick.replaceChildren();
  if (view.phase === "play") {
    into.trick.append(el("div", { class: "label" }, `Trick ${done + 1}`));
    const row = el("div", { class: "played" });
    if (current) {
      current.cards.forEach((c, i) => row.append(el("figure", {},
        card(c, { trumps }), el("figcaption", {}, who(seatOf(current, i), view)))));
    } else {
      row.append(el("span", { class: "muted" }, `${who(view.to_move, view)} to lead`));
    }
    into.trick.append(row);
  }
  into.tricks.replaceChildren(...view.tricks.slice(0, done).map((t, k) =>
    el("div", { class: "past" }, `${k + 1}. ${who(t.leader, view)} led `,
      trickCards(t, n, (s) => who(s, view), { class: "small", trumps }),
      ` → ${who(view.trick_winners[k], view)}`)));
  const box = into.tricks.closest("details");  // the table's list: shown from the first trick
  if (box) box.hidden = done === 0;
  // The hand in the table's order: cards still held, the legal ones clickable and
  // numbered as the terminal numbers them; the trumps (jick and jokers too) marked.
  // Coming down to 6 (rules 12.2.2, 12.8.1) the hand's cards are the put-down's
  // buttons too ("down:4D"), numbered as the terminal numbers them.
  const isPlay = view.phase === "play";
  const down = view.phase === "put_down";
  const keyed = isPlay ? view.choices : down ? view.choices.map((a) => a.slice(5)) : [];
  into.hand.replaceChildren(...view.held.map((c) => {
    const k = keyed.indexOf(c);
    if (actions && k >= 0) {
      return card(c, { button: true, class: down ? "legal put-down" : "legal", trumps,
        "data-key": keyOf(String(k + 1)), "data-call": down ? view.choices[k] : null,
        title: down ? `key ${keyOf(String(k + 1))}: put down ${cardName(c)}` : null,
        onclick: () => actions(down ? view.choices[k] : c) });
    }
    return card(c, { class: actions && (isPlay || down) ? "dim" : "", trumps });
  }));
  into.choices.replaceChildren();
  if (actions && down && !view.drawing) {
    into.choices.append(el("span", { class: "muted" }, `Put down a card of your hand: ${view.to_put_down} more to come down to 6`));
  }
  if (actions && down && view.drawing) {
    // Under discard=draw (rules 12.8.2): any non-trump, a trump only beyond 6, keeping
    // 3; then "draw" stops and draws back to 6, its button numbered last (and the key d).
    into.choices.append(el("span", { class: "muted" }, view.to_put_down
      ? `Put down a card of your hand: at least ${view.to_put_down} more, then draw back to 6 `
      : "Put down a card of your hand, or draw back to 6: "));
    const k = view.choices.indexOf("draw");
    if (k >= 0) {
      into.choices.append(el("button", { type: "button", class: "call draw", "data-call": "draw",
        "data-key": keyOf(String(k + 1)), title: `key ${keyOf(String(k + 1))} or d: draw back to 6`,
        onclick: () => actions("draw") }, "draw"));
    }
  }
  if (actions && view.phase === "call") {
    // The partner's card to call (rules 12.1): each callable card a button, numbered as
    // the terminal numbers them (its holder is the pitcher's partner).
    into.choices.append(el("span", { class: "muted" }, "Call your partner's card: "));
    view.choices.forEach((a, i) => {
      const key = keyOf(String(i + 1));
      into.choices.append(el("button", { type: "button", class: "call partner-call", "data-call": a,
        title: `key ${key}: ${cardName(a.slice(5))}`, onclick: () => actions(a) },
        card(a.slice(5), { class: "small", trumps })));
    });
  }
  if (actions && (view.phase === "auction" || view.phase === "trump")) {
    view.choices.forEach((a, i) => {
      const key = view.phase === "trump" ? a.slice(-1).toLowerCase() : a === "pass" ? "p" : a === "shoot" ? "s" : keyOf(a);
      into.choices.append(el("button", { type: "button", class: "call", "data-call": a,
        title: `key ${key}`, onclick: () => actions(a) },
        callButton(a) + (view.choice_words && view.choice_words[i] !== a ? view.choice_words[i].slice(a.length) : "")));
    });
  }
}

function drawLines(view, trumps) {
  // The discard and draw as the seat saw it (rules §6 discard=non-trump): its own
  // cards put down and drawn, what each other seat drew, trumps burnt face up, the rob.
  const d = view.draw;
  const lines = [];
  if (d) {
    const mine = d.mine;
    const cards = (cs) => cs.map((c) => card(c, { class: "small", trumps }));
    lines.push(el("div", { class: "line draw-mine" }, `Draw: you put down ${mine.discarded.length} `,
      cards(mine.discarded), ` and drew ${mine.drawn.length} `, cards(mine.drawn)));
    const others = d.seats.map((x, s) => s === view.seat ? null : `${who(s, view)} drew ${x.drawn}`).filter(Boolean);
    lines.push(el("div", { class: "line muted small" }, others.join(", ")));
    // discards=shown (12.9): every other seat's discards face up
    const shown = d.seats.map((x, s) => s !== view.seat && x.shown && x.shown.length ? [who(s, view) + " ", cards(x.shown), " "] : null).filter(Boolean);
    if (shown.length) lines.push(el("div", { class: "line small shown" }, "Discarded face up: ", shown));
    const burnt = d.seats.map((x, s) => x.burnt.length ? [who(s, view) + " ", cards(x.burnt), " "] : null).filter(Boolean);
    if (burnt.length) lines.push(el("div", { class: "line small" }, "Burnt face up (trumps over six): ", burnt));
    if (d.robbed !== undefined && view.pitcher !== null) {
      // the robber: the pitcher, or under rob=dealer (cinch, 12.7) the dealer (the server's)
      const up = d.put_down_shown || [];  // face up (12.7, 12.9)
      const took = [`${who(d.robber, view)} robbed the stock (${d.robbed})`];
      if (d.put_down) {
        took.push(` and put down ${d.put_down - up.length} face down`);
        if (up.length) took.push(" and ", cards(up), " face up");
      } else if (view.phase === "put_down") took.push(", nothing put down yet");  // 4.8.7 begun
      if (mine.robbed) took.push(": took ", cards(mine.robbed));
      if (mine.robbed && mine.put_down && mine.put_down.length) took.push(", put down ", cards(mine.put_down));
      lines.push(el("div", { class: "line small" }, took));
    }
  }
  // kitty=N (12.2): the pitcher took the kitty and put as many down, face down unless
  // discards=shown; his own view alone names the kitty's cards.
  const k = view.kitty;
  if (k && view.pitcher !== null) {
    const cards = (cs) => cs.map((c) => card(c, { class: "small", trumps }));
    // discards=shown (12.9.1): the put-down face up, seen by all
    const took = [`${who(view.pitcher, view)} took the kitty (${k.taken}) and put down ${k.put_down} ${k.shown ? "face up" : "face down"}`];
    if (k.shown && !k.mine) took.push(" ", cards(k.shown));
    if (k.mine) took.push(": took ", cards(k.mine.taken), ", put down ", cards(k.mine.put_down || []));
    lines.push(el("div", { class: "line small kitty" }, took));
  }
  if (view.out && view.out.length) {
    lines.push(el("div", { class: "line small" }, "Out (no trump left): " + view.out.map((s) => who(s, view)).join(", ")));
  }
  return lines;
}

// ---------------------------------------------------------------- the coach

// the coach's units that are chances (net P(game), a difference of two: -1 to 1)
const CHANCES = ["P(win)", "P(game)", "net P(game)"];

function judgedName(j, a) {
  // An action judged, as the table shows it: a call as offered (the server's words, a
  // dealer's steal marked "2 (steal)"), anything else by actionName.
  return (j.choice_words && j.choice_words[a]) || actionName(a);
}

function judgementBox(j) {
  if (!j) return el("p", { class: "muted" }, "Only one legal choice: taken, not judged.");
  // The values as the terminal shows them (practice.shown_values): its words, its sign.
  const unit = j.unit_words || (j.unit === "P(win)" ? "P(win game)" : "your side's points");
  const sign = j.sign || 1;
  const acts = Object.keys(j.values).sort((a, b) => j.values[b] - j.values[a]);
  const top = j.values[acts[0]];
  const chance = CHANCES.includes(j.unit);  // a probability: shown in percent
  const fmt = (v) => (chance ? pct(v) : num(sign * v));
  const hw = (v) => v === null || v === undefined ? "" : " ±" +
    (chance ? (100 * v).toFixed(1) : v.toFixed(2));
  const rows = acts.map((a) => el("tr", { class: (a === j.chosen ? "chosen" : "") + (a === j.best ? " best" : "") },
    el("td", {}, judgedName(j, a), a === j.chosen ? " (yours)" : "", a === j.best ? " ★" : ""),
    el("td", { class: "num" }, fmt(j.values[a]) + hw(j.half_widths[a]))));
  const labelClass = j.label ? "label-" + j.label : "label-fine";
  return el("div", { class: "judgement" },
    el("p", { class: "verdict " + labelClass }, j.text || ""),
    // A chance is drawn as it is (0 to 1); points as how far each choice is behind the
    // best (values such as -5.62 and -5.66 drawn from 0 would look the same).
    chart(acts.map((a) => ({ name: judgedName(j, a), value: chance ? j.values[a] : top - j.values[a],
      mark: a === j.chosen })), chance ? [j.unit === "net P(game)" ? -1 : 0, 1] : null),
    chance ? null : el("p", { class: "muted small chart-note" }, "bars: how far behind the best " +
      `choice (the longest ${(top - j.values[acts[acts.length - 1]]).toFixed(2)} points)`),
    el("table", {}, el("thead", {}, el("tr", {}, el("th", {}, "choice"), el("th", {}, unit))),
      el("tbody", {}, rows)),
    el("p", { class: "muted small" }, `${j.samples.toLocaleString("en-US")} ${j.kind === "card" ? "worlds" : "deals"}` +
      (j.note ? " · " + j.note : "")));
}

function chart(bars, range) {
  // A horizontal bar per value; range [lo, hi], or from the values (0 included).  The
  // names' margin fits the longest ("♦ diamonds trump"), about 7 units a letter at 11px.
  const pad = Math.max(70, 10 + 7 * Math.max(...bars.map((b) => [...b.name].length)));
  const w = pad + 230, rowH = 20;
  const vals = bars.map((b) => b.value);
  const lo = range ? range[0] : Math.min(0, ...vals);
  const hi = range ? range[1] : Math.max(0, ...vals);
  const span = hi - lo || 1;
  const x = (v) => pad + (w - pad - 10) * (v - lo) / span;
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", `0 0 ${w} ${bars.length * rowH + 4}`);
  svg.setAttribute("class", "chart");
  svg.setAttribute("role", "img");
  bars.forEach((b, i) => {
    const y = 2 + i * rowH;
    const t = document.createElementNS(SVG, "text");
    t.setAttribute("x", pad - 6); t.setAttribute("y", y + 14);
    t.setAttribute("text-anchor", "end");
    t.textContent = b.name;
    const r = document.createElementNS(SVG, "rect");
    const x0 = x(Math.min(0, b.value) < lo ? lo : Math.min(Math.max(0, lo), b.value));
    const x1 = x(Math.max(b.value, Math.max(0, lo)));
    r.setAttribute("x", Math.min(x0, x1)); r.setAttribute("y", y + 3);
    r.setAttribute("width", Math.max(1, Math.abs(x1 - x0))); r.setAttribute("height", rowH - 6);
    r.setAttribute("class", b.mark ? "bar mark" : "bar");
    svg.append(t, r);
  });
  if (lo < 0) {
    const z = document.createElementNS(SVG, "line");
    z.setAttribute("x1", x(0)); z.setAttribute("x2", x(0));
    z.setAttribute("y1", 0); z.setAttribute("y2", bars.length * rowH + 4);
    z.setAttribute("class", "zero");
    svg.append(z);
  }
  return svg;
}

// ---------------------------------------------------------------- end of a hand

function breakdown(h, end, seat, title) {
  // A finished hand: the terminal's own lines (practice.hand_end), each point the
  // rules award with its worth and who took it, the table of counts and scores.
  const n = h.players;
  const name = (s) => (s === seat ? "you" : `seat ${s}`);
  const side = (s) => s === null || s === undefined ? "nobody" :
    h.partnership ? (s % 2 === seat % 2 ? `your team (${name(s)})` : `them (${name(s)})`) : name(s);
  const lines = end ? end.lines : [];
  if (h.pitcher === null) {
    return el("div", { class: "hand-result" }, el("h3", {}, title),
      lines.map((l) => el("p", {}, l)));
  }
  const sides = h.partnership ? [0, 1] : [...Array(n).keys()];
  const sideName = (s) => h.partnership ? (s === seat % 2 ? "your team" : "them") : name(s);
  const rows = sides.map((s) => el("tr", { class: (h.partnership ? s === seat % 2 : s === seat) ? "you" : "" },
    el("td", {}, sideName(s)),
    h.partnership ? null : el("td", { class: "num" }, h.game_points[s]),
    el("td", { class: "num" }, h.points_won[s]),
    el("td", { class: "num" }, num(h.round_points[s], 0)), el("td", { class: "num" }, h.scores_after[s])));
  const heads = ["side", h.partnership ? null : "game count", "points", "score change", "score"].filter(Boolean);
  return el("div", { class: "hand-result" },
    el("h3", {}, title),
    el("p", { class: "headline" }, lines[0] || ""),
    el("ul", { class: "awards" },
      (end ? end.awards : []).map((a) => el("li", { "data-award": a.name },
        el("b", {}, a.name + (a.worth !== 1 ? ` (${a.worth})` : "")), " ", side(a.by)))),
    el("table", {}, el("thead", {}, el("tr", {}, heads.map((c) => el("th", {}, c)))),
      el("tbody", {}, rows)),
    el("details", {}, el("summary", {}, "Tricks"),
      h.tricks.map((t, k) => el("div", { class: "past" }, `${k + 1}. ${name(t.leader)} led `,
        trickCards(t, n, name, { class: "small" }), ` → ${name(t.winner)}`))),
    el("details", {}, el("summary", {}, "As the terminal shows it"), el("pre", {}, lines.join("\n"))));
}

// ---------------------------------------------------------------- play

const table = {
  get scores() { return $("scores"); },
  get auction() { return $("auction"); },
  get contract() { return $("contract"); },
  get draw() { return $("draw"); },
  get trick() { return $("trick"); },
  get tricks() { return $("tricks"); },
  get hand() { return $("hand"); },
  get choices() { return $("choices"); },
};

async function startGame(ev) {
  ev.preventDefault();
  showError("");
  const body = formValues($("setup"));
  $("start").disabled = true;
  $("start").textContent = "Dealing…";
  try {
    game = await api("/api/games", body);
    $("setup").hidden = true;
    $("table").hidden = false;
    renderGame();
    poll(game.id);
  } catch (e) {
    showError(e.message);
  } finally {
    $("start").disabled = false;
    $("start").textContent = "Start the game";
  }
}

async function poll(id) {
  while (game && game.id === id && !["over", "error"].includes(game.status)) {
    try {
      const next = await api(`/api/games/${encodeURIComponent(id)}?since=${game.version}`);
      if (!game || game.id !== id) return;
      game = next;
      renderGame();
    } catch (e) {
      showError(e.message);
      await new Promise((r) => setTimeout(r, 2000));
      if (/no such game/.test(e.message)) return;
    }
  }
}

async function act(action) {
  if (!game || game.status !== "your turn") return;
  showError("");
  typed = "";
  const id = game.id;
  game.status = "sent";
  renderStatus();
  try {
    await api(`/api/games/${encodeURIComponent(id)}/action`, { action });
  } catch (e) {
    showError(e.message);
    game.status = "your turn";
    renderStatus();
  }
}

function renderStatus() {
  const s = game.status;
  const text = {
    "your turn": !game.view ? "Your turn" : { auction: "Your call", trump: "Name trump", call: "Call your partner's card",
      put_down: game.view.drawing ? "Put down a card, or draw" : `Put down a card (${game.view.to_put_down} more)` }[game.view.phase] || "Your card",
    coach: "The coach is thinking…",
    playing: "The others are playing…",
    sent: "Sent…",
    over: "Game over",
    error: "The game stopped: " + (game.error || ""),
  }[s] || s;
  $("status").textContent = typed && s === "your turn" ? `${text}: ${typed}… (the next digit, or Enter)` : text;
  document.body.dataset.status = s;
  for (const b of document.querySelectorAll("#hand button, #choices button")) b.disabled = s !== "your turn";
}

// Numbers above 9 by keyboard (the terminal types them whole, "10"): 0 is 10 (the tenth
// card, a bid of 10); a digit that begins a legal number above 10 (cinch's bids of 11-14)
// waits for the next digit, Enter taking the digit alone.
let typed = ""; // a digit waiting for the next one

function keyOf(number) {
  // The keys that reach a number: "0" for 10, "1 2" for 12.
  return number === "10" ? "0" : number.length > 1 ? number.split("").join(" ") : number;
}

function keyNumber(k, numbers) {
  // The number a key completes (or ""), and the digits left waiting for the next key.
  const t = typed + k;
  if (k === "enter") return [numbers.includes(typed) ? typed : "", ""];
  if (!/^[0-9]$/.test(k)) return ["", ""];
  if (numbers.some((x) => Number(x) > 10 && x.length > t.length && x.startsWith(t))) return ["", t];
  if (numbers.includes(t)) return [t, ""];
  if (t === "0" && numbers.includes("10")) return ["10", ""];
  return ["", ""];
}

function keysLine(g) {
  // The keys this game's rules use, in the server's facts (sessions.keys_json): the
  // numbered cards, the bids (at the person's call those offered him), shoot, naming
  // trump, the jick and the jokers where the rules have them.
  const keys = g.keys;
  const k = (t) => el("kbd", {}, t);
  const parts = ["Keys: ", k("1"), "-", k(String(Math.min(9, keys.cards)))];
  if (keys.cards >= 10) parts.push(" and ", k("0"), " (the tenth)");
  parts.push(" play the numbered card; in the auction ", k("p"), " passes");
  if (keys.bids) {
    const [lo, hi] = keys.bids;
    if (lo <= 9) parts.push(", ", ...(lo < Math.min(9, hi) ? [k(String(lo)), "-"] : []), k(String(Math.min(9, hi))), lo < Math.min(9, hi) ? " bid" : " bids");
    if (lo <= 10 && hi >= 10) parts.push(", ", k("0"), " bids 10");
    if (hi >= 11) {
      const from = Math.max(lo, 11) - 10;
      parts.push(", ", k("1"), " then ", ...(from < hi - 10 ? [k(String(from)), "-"] : []), k(String(hi - 10)),
        from < hi - 10 ? ` bid ${from + 10}-${hi}` : ` bids ${hi}`);
      if (lo <= 1) parts.push(" (", k("Enter"), " after ", k("1"), " bids 1)");
    }
  }
  if (keys.shoot) parts.push(", ", k("s"), " shoots");
  if (keys.named_trump) parts.push("; ", k("c"), " ", k("d"), " ", k("h"), " ", k("s"), " name trump");
  if (keys.partner_call) parts.push("; the numbers call your partner's card");
  if (keys.put_down) parts.push("; coming down to 6 the numbers put down the numbered card");
  if (keys.draw) parts.push(", and ", k("d"), " draws back to 6");
  const extra = [keys.jick ? "the jick" : "", keys.jokers ? "the jokers" : ""].filter(Boolean).join(" and ");
  parts.push(`. Trumps${extra ? ` (${extra} too)` : ""} wear a gold edge.`);
  return parts;
}

function renderGame() {
  const g = game;
  document.querySelector("#play .keys").replaceChildren(...keysLine(g));
  if (g.view) {
    lastView = g.view;
    renderView(g.view, table, act);
  } else for (const b of document.querySelectorAll("#hand button, #choices button")) b.disabled = true;
  renderStatus();
  const box = $("coach");
  const last = g.judgements[g.judgements.length - 1];
  box.hidden = !g.coach || (!last && !g.note);
  if (g.note) {  // the call of a partner's card or a put-down, after the last judgement
    box.replaceChildren(el("h3", {}, `Coach · hand ${g.note.hand}`),
      el("p", { class: "call-note" }, g.note.text));
  } else if (last) {
    // "you named ♠ spades trump", as the review says it (not "your trump ♠ spades trump")
    const what = last.kind === "trump" ? "you named" : `your ${last.kind}`;
    box.replaceChildren(el("h3", {}, `Coach · hand ${last.hand} · ${what} ${judgedName(last, last.chosen)}`),
      judgementBox(last));
    box.dataset.count = String(g.judgements.length);
  }
  const b = $("breakdown");
  b.hidden = !g.hands.length;
  if (g.hands.length) {
    b.replaceChildren(breakdown(g.hands[g.hands.length - 1], g.ends[g.ends.length - 1], g.seat, `Hand ${g.hands.length}`));
    b.dataset.hands = String(g.hands.length);
  }
  $("log").textContent = g.log.join("\n");
  const over = $("over");
  over.hidden = g.status !== "over";
  if (g.status === "over") {
    $("quit").hidden = true;
    const loss = lossWords(g.judgements);
    if (lastView && g.final_scores) renderScores(lastView, table, g.final_scores);
    over.replaceChildren(
      el("h3", {}, g.result_words),  // table.game.game_end_words: the terminal's words
      el("p", {}, `Final scores: ${g.final_scores.join(", ")}`),
      g.coach ? el("p", {}, `Your decisions: ${loss}.`) : null,
      g.saved_as ? el("p", {}, `Saved as ${g.saved_as}.`) : null,
      el("div", { class: "bar" },
        g.saved_as ? el("button", { type: "button", id: "review-this", onclick: () => reviewSaved(g.saved_as, g.seat) }, "Review this game") : null,
        el("button", { type: "button", id: "new-game", onclick: newGame }, "New game")));
  }
}

function lossWords(js) {
  // What the decisions cost, by kind, each in its own unit (as practice's loss line).
  const parts = [];
  const kinds = [["call", "call", "calls"], ["trump", "naming of trump", "namings of trump"], ["card", "card", "cards"]];
  for (const [[kind, one, many], unit] of kinds.flatMap((k) => [...new Set(js.filter((j) => j.kind === k[0]).map((j) => j.unit))].map((u) => [k, u]))) {
    const mine = js.filter((j) => j.kind === kind && j.unit === unit);
    const loss = mine.reduce((a, j) => a + j.loss, 0);
    // a chance lost in percentage points: summed over a game it can pass 100
    const amount = CHANCES.includes(unit) ? `${(100 * loss).toFixed(1)} percentage points of ${unit}` :
      unit === "score" ? `${loss.toFixed(2)} points of expected score` :
      unit === "margin" ? `${loss.toFixed(2)} points of margin` : `${loss.toFixed(2)} points`;
    parts.push(`${mine.length} ${mine.length === 1 ? one : many} lost ${amount}`);
  }
  return parts.length ? parts.join(", ") : "none judged";
}

function newGame() {
  game = null;
  lastView = null;
  $("table").hidden = true;
  $("setup").hidden = false;
  $("quit").hidden = false;
  for (const id of ["coach", "breakdown", "over"]) $(id).hidden = true;
}

async function quitGame() {
  if (!game) return;
  try {
    game = await api(`/api/games/${encodeURIComponent(game.id)}/quit`, {});
    renderGame();
  } catch (e) {
    showError(e.message);
  }
}

function onKey(ev) {
  if (ev.target.closest && ev.target.closest("input, select, textarea")) return;
  if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
  const tab = (location.hash || "#play").slice(1);
  if (tab === "review" && review) {
    if (ev.key === "ArrowLeft") step(-1);
    if (ev.key === "ArrowRight") step(1);
    return;
  }
  if (tab !== "play" || !game || game.status !== "your turn" || !game.view) return;
  const v = game.view;
  const k = ev.key.toLowerCase();
  const numbers = v.phase === "auction" ? v.legal.filter((a) => /^[0-9]+$/.test(a))
    : ["play", "call", "put_down"].includes(v.phase) ? v.choices.map((_, i) => String(i + 1)) : [];
  const [number, waiting] = keyNumber(k, numbers);
  if (typed || waiting) {
    typed = waiting;
    renderStatus();
  }
  if (v.phase === "auction") {
    if (k === "p" && v.legal.includes("pass")) act("pass");
    else if (k === "s" && v.legal.includes("shoot")) act("shoot");
    else if (number) act(number);
  } else if (v.phase === "trump") {
    if (v.legal.includes("trump:" + k.toUpperCase())) act("trump:" + k.toUpperCase());
  } else if (v.phase === "put_down" && k === "d" && v.legal.includes("draw")) {
    act("draw");  // rules 12.8.2: no more put down, draw back to 6
  } else if (number) {
    act(v.choices[Number(number) - 1]);
  }
}

// ---------------------------------------------------------------- review

async function loadSaves() {
  try {
    const doc = await api("/api/saves");
    const sel = $("saves");
    const keep = sel.value;
    sel.replaceChildren(el("option", { value: "" }, "(upload instead)"),
      ...doc.saves.map((s) => el("option", { value: s.name }, s.name)));
    if (keep) sel.value = keep;
    else if (doc.saves.length) sel.value = doc.saves[0].name;
  } catch (e) {
    showError(e.message);
  }
}

async function reviewSaved(name, seat) {
  location.hash = "#review";
  await loadSaves();
  $("saves").value = name;
  const form = $("review-form");
  form.elements.seat.value = seat;
  await runReview({ save: name, seat });
}

async function submitReview(ev) {
  ev.preventDefault();
  showError("");
  const form = $("review-form");
  const body = formValues(form);
  const file = form.elements.file.files[0];
  if (!body.save) {
    delete body.save;
    if (!file) return showError("choose a saved game or upload a record");
    try {
      body.record = JSON.parse(await file.text());
    } catch (e) {
      return showError("the file is not JSON: " + e.message);
    }
  }
  await runReview(body);
}

async function runReview(body) {
  $("review-go").disabled = true;
  $("review-go").textContent = "Reviewing…";
  try {
    review = await api("/api/review", body);
    review.at = 0;
    $("review-out").hidden = false;
    renderStep();
  } catch (e) {
    showError(e.message);
  } finally {
    $("review-go").disabled = false;
    $("review-go").textContent = "Review";
  }
}

function step(d) {
  if (!review) return;
  review.at = Math.max(0, Math.min(review.steps.length - 1, review.at + d));
  renderStep();
}

function renderStep() {
  const r = review;
  $("review-summary").textContent =
    `Seat ${r.seat} · ${r.steps.length} decisions · judged by ${r.source} · ` +
    `${r.rules} · ${lossWords(r.steps.map((x) => x.judgement).filter(Boolean))} · ` +
    `${r.labelled} labelled` + (r.stopped ? " · unfinished game" : "");
  $("step-no").textContent = `decision ${r.at + 1} of ${r.steps.length}`;
  $("prev").disabled = r.at === 0;
  $("next").disabled = r.at === r.steps.length - 1;
  const s = r.steps[r.at];
  const box = $("step");
  const into = {};
  for (const k of ["scores", "auction", "contract", "draw", "trick", "tricks", "hand", "choices"]) {
    into[k] = el("div", { class: k === "hand" ? "hand" : k === "trick" ? "trick" : k === "scores" ? "scores" : "line" });
  }
  renderView(s.view, into, null);
  const hand = r.hands[s.hand - 1];
  const lastOfHand = !r.steps[r.at + 1] || r.steps[r.at + 1].hand !== s.hand;
  box.replaceChildren(
    el("h3", {}, `Hand ${s.hand}: ${{ auction: "your call", trump: "you named", call: "you", put_down: "you" }[s.view.phase] || "your card"} ` +
      (s.view.phase === "auction" ? s.view.choice_words[s.view.choices.indexOf(s.action)] : actionName(s.action))),
    into.scores, into.auction, into.contract, into.draw, into.trick,
    el("div", { class: "past-list" }, into.tricks), into.hand,
    el("div", { class: "panel" }, s.view.phase === "call"  // a partner's card: said, not judged (12.1)
      ? el("p", { class: "call-note" }, s.note || "coach: pitchsim calls the same card.")
      : s.view.phase === "put_down"  // a card put down: said, not judged (12.8.3)
        ? el("p", { class: "call-note put-down-note" }, s.note || "coach: pitchsim puts down the same.")
        : judgementBox(s.judgement)),
    ...(lastOfHand && hand ? [el("div", { class: "panel" }, breakdown(hand, r.ends[s.hand - 1], r.seat, `End of hand ${s.hand}`))] : []));
}

// ---------------------------------------------------------------- odds

async function submitOdds(ev) {
  ev.preventDefault();
  showError("");
  const out = $("odds-out");
  out.replaceChildren(); // a new question: the last answer is not this hand's
  $("odds-go").disabled = true;
  $("odds-go").textContent = "Working…";
  try {
    const doc = await api("/api/odds", formValues($("odds-form")));
    out.replaceChildren(...renderOdds(doc));
  } catch (e) {
    showError(e.message);
  } finally {
    $("odds-go").disabled = false;
    $("odds-go").textContent = "Work out the odds";
  }
}

function presetOf(name) {
  // The preset the options name (auction-pitch for the base game's "").
  return options && options.presets.find((p) => p.name === (name || "auction-pitch"));
}

function fitPlayers(form) {
  // The Players select offers the counts the form's preset is played by (the rules the
  // server reads may narrow them further, and a start is then refused in one line): the
  // others are disabled, and a count outside is moved to the nearest inside.
  const p = presetOf(form.elements.preset.value);
  if (!p) return;
  const [lo, hi] = p.players;
  const select = form.elements.players;
  for (const o of select.options) o.disabled = Number(o.value) < lo || Number(o.value) > hi;
  const n = Number(select.value);
  if (n < lo || n > hi) select.value = String(Math.min(hi, Math.max(lo, n)));
}

function oddsDeal() {
  // Under the Odds form's hand: how many cards this preset deals at this table, the
  // jokers, the levels and how trump is chosen.
  const form = $("odds-form");
  const p = presetOf(form.elements.preset.value);
  if (!p) return;
  const n = form.elements.players.value;
  const cards = p.cards[n];
  const jokers = p.jokers === 2 ? ", HJ and LJ the jokers" : p.jokers ? ", HJ the joker" : "";
  $("odds-deal").textContent = cards === undefined
    ? `${p.name} is played by ${p.players[0]}-${p.players[1]} players`
    : `${cards} cards${jokers} · levels 1-${p.max_bid}, bids ${p.min_bid}-${p.max_bid}` +
      (p.shoot ? " and shoot" : "") + ` · trump ${p.trump === "named" ? "named" : "by the first lead"}`;
  $("odds-deal").dataset.cards = cards === undefined ? "" : cards;
}

let kittyAsked = 0;

async function setupKitty() {
  // The game form's Kitty select (12.2): the sizes the server would start a game with at
  // this table against these opponents (/api/kitties: up to a hand's worth within the
  // pack, and only those the opponents play there: every size, now that the odds
  // bidder's rows are made for a kitty without shipped ones), the note under the fields
  // saying why any other is left out.
  // Hidden, and left out of the request, where the preset cannot have a kitty at this
  // table or the table itself is refused (the Start button then says why).
  // ``#setup[data-kitties]`` is "asking" until the answer for the form as it now
  // stands is shown, then "shown".
  const form = $("setup");
  const select = form.elements.kitty;
  const asked = ++kittyAsked;
  form.dataset.kitties = "asking";
  const f = formValues(form);
  const table = { preset: f.preset, players: f.players, partnership: f.partnership,
    rules: f.rules, opponents: f.opponents };
  let k = { most: 0, sizes: [], refused: null };
  try {
    k = await api("/api/kitties", table);
  } catch (e) {
    // a table refused whatever the kitty, or opponents still being typed: no kitty
  }
  if (asked !== kittyAsked) return;  // a later question is on its way
  const keep = select.value;
  const sizes = k.sizes.map(String);
  select.replaceChildren(el("option", { value: "0" }, "none"),
    ...sizes.map((n) => el("option", { value: n }, `${n} card${n === "1" ? "" : "s"}`)));
  select.value = sizes.includes(keep) ? keep : "0";
  select.disabled = !sizes.length;
  $("kitty-field").hidden = !k.most;
  const note = $("kitty-note");
  note.textContent = k.refused ? `Other kitty sizes are not offered against these opponents: ${k.refused}` : "";
  note.hidden = !k.most || !k.refused;
  form.dataset.kitties = "shown";
}

let trumpAsked = 0;

async function oddsTrumps() {
  // The Trump select offers only the suits the server accepts for this hand under
  // these rules (a suit it holds; under named trump, one it holds a trump in).
  const form = $("odds-form");
  const select = form.elements.trump;
  const asked = ++trumpAsked;
  const f = formValues(form);
  let suits = [];
  try {
    suits = (await api("/api/odds/trumps",
      { hand: f.hand, preset: f.preset, rules: f.rules, partnership: f.partnership })).suits;
  } catch (e) {
    suits = [];  // a hand still being typed: the odds button says what is wrong
  }
  if (asked !== trumpAsked) return;  // a later question is on its way
  const keep = select.value;
  select.replaceChildren(el("option", { value: "" }, "every suit it could make trump"),
    ...suits.map((s) => el("option", { value: s }, `${SUITS[s]} ${SUIT_WORDS[s]} only`)));
  select.value = suits.includes(keep) ? keep : "";
}

function oddsFromGame() {
  // The Odds tab asks about the game being played: its preset, table and rules, and
  // the person's hand while it is still the whole deal (the auction).
  if (!game || !options) return;
  const form = $("odds-form");
  if (form.dataset.game === game.id) return;
  form.dataset.game = game.id;
  const [name, ...rest] = game.rules.split(",");
  form.elements.preset.value = name === "auction-pitch" ? "" : name;
  form.elements.players.value = String(game.players);
  form.elements.rules.value = rest.filter((r) => !r.startsWith("partnership")).join(",");
  form.elements.partnership.checked = !!game.partnership;
  form.elements.seat.value = game.seat;
  const v = game.view;
  if (v && v.phase === "auction" && v.held) form.elements.hand.value = v.held.join(" ");
  oddsDeal();
  oddsTrumps();
}

function renderOdds(doc) {
  // bid-odds as ``pitchsim bid-odds`` prints it under a preset: a table per trump
  // suit, the levels 1 .. the maximum bid as rows (best suit first), then passing.
  const o = doc.bid_odds;
  const parts = [el("h3", {}, `bid-odds: ${o.hand.map(cardName).join(" ")} · ${o.rules} · ` +
    `${o.players} players · ${o.samples.toLocaleString()} deals a suit · seed ${o.seed}`)];
  const minBid = o.min_bid;  // bid-odds' one JSON shape, the base game's too
  const suits = Object.keys(o.by_trump);
  const levels = Object.keys(o.by_trump[suits[0]].p_at_least).map(Number);
  const maxBid = o.max_bid;
  const first = levels.includes(minBid) ? minBid : levels[0];
  suits.sort((a, b) => o.by_trump[b].expected_score[first] - o.by_trump[a].expected_score[first]);
  const side = o.partnership ? "the pitcher's team" : "the pitcher";
  parts.push(el("p", { class: "small" }, `Chance ${side} wins at least k of ${maxBid} points, ` +
    `with its 95% interval; bids ${minBid}-${maxBid}. E[score]: made, the points won; set, minus the bid.`));
  const grid = el("div", { class: "suit-tables" });
  for (const suit of suits) {
    const t = o.by_trump[suit];
    const share = o.chosen_trump_share[suit];
    const rows = levels.map((k) => {
      const best = suit === o.recommended_trump && k === o.recommended_bid;
      const bid = k >= minBid;
      return el("tr", { "data-level": k, class: best ? "best" : "" },
        el("th", { scope: "row" }, String(k), best ? " ★" : ""),
        el("td", { class: "num p" }, meter(t.p_at_least[k]), el("span", { class: "v" }, pct(t.p_at_least[k]))),
        el("td", { class: "num muted small" }, `${pct(t.ci95[k][0])}-${pct(t.ci95[k][1])}`),
        el("td", { class: "num" }, bid ? num(t.expected_score[k]) : "–"),
        el("td", { class: "num" }, bid && t.expected_margin ? num(t.expected_margin[k]) : "–"));
    });
    if (t.shoot) {
      rows.push(el("tr", { "data-level": "shoot" }, el("th", { scope: "row" }, "shoot"),
        el("td", { class: "num p" }, meter(t.shoot.p_made), el("span", { class: "v" }, pct(t.shoot.p_made))),
        el("td", { class: "num muted small" }, `${pct(t.shoot.ci95[0])}-${pct(t.shoot.ci95[1])}`),
        el("td", { class: "num", colspan: 2 }, "wins the game")));
    }
    grid.append(el("table", { class: "suit-odds", "data-trump": suit },
      el("caption", {}, `${suitName(suit)} trump`,
        share ? el("span", { class: "muted small" }, ` · picked ${Math.round(100 * share)}%`) : null),
      el("thead", {}, el("tr", {}, ["k", "P(make k)", "95%", "E[score]", "E[margin]"].map((c) => el("th", {}, c)))),
      el("tbody", {}, rows)));
  }
  parts.push(grid);
  parts.push(el("p", { id: "odds-verdict" }, o.recommended_bid
    ? `Worth a bid of ${o.recommended_bid} with ${suitName(o.recommended_trump)} trump (expected ${num(o.recommended_expected_score)}).`
    : `Worth a pass: no bid ${minBid}-${maxBid} has a positive expected score.`));
  if (o.passing) {
    parts.push(el("p", { id: "odds-passing" }, `Passing instead: as a defender ` +
      `${o.partnership ? "the team" : "this hand"} wins ${o.passing.expected_points.toFixed(2)} points a hand ` +
      "against a pitcher dealt a random hand (one who outbids you is usually stronger)."));
  }
  if (doc.advise) {
    const a = doc.advise;
    const calls = Object.entries(a.by_call);
    parts.push(el("h3", {}, `advise: seat ${a.seat}, dealer ${a.dealer}, after ${a.calls.length ? a.calls.join(", ") : "no calls"} · ${a.samples.toLocaleString()} deals kept`));
    parts.push(el("table", { class: "odds" },
      el("thead", {}, el("tr", {}, ["call", "P(win game)", "P(pitch)", "P(made)", "E[score]", "E[margin]"].map((c) => el("th", {}, c)))),
      el("tbody", {}, calls.map(([c, x]) => el("tr", { class: c === a.recommended_call ? "best" : "" },
        el("td", {}, x.label, c === a.recommended_call ? " ★" : ""),
        el("td", { class: "num" }, pct(x.p_win_game)), el("td", { class: "num" }, pct(x.p_pitcher)),
        el("td", { class: "num" }, pct(x.p_made)), el("td", { class: "num" }, num(x.expected_score)),
        el("td", { class: "num" }, num(x.expected_margin)))))));
    parts.push(el("figure", { class: "figure" },
      chart(calls.map(([c, x]) => ({ name: x.label, value: x.p_win_game, mark: c === a.recommended_call })), [0, 1]),
      el("figcaption", {}, "P(win the game) by call")));
    if (a.notes.length) parts.push(el("p", { class: "muted small" }, a.notes.join(" · ")));
  } else if (doc.advise_error) {
    parts.push(el("p", { class: "error" }, "advise: " + doc.advise_error));
  }
  return parts;
}

// ---------------------------------------------------------------- start

async function init() {
  $("setup").addEventListener("submit", startGame);
  $("quit").addEventListener("click", quitGame);
  $("review-form").addEventListener("submit", submitReview);
  // a file chosen is the record to review: the Saved game select (the newest save by
  // default) gives way to it, or the upload would be ignored
  $("review-form").elements.file.addEventListener("change", (ev) => { if (ev.target.files.length) $("saves").value = ""; });
  $("prev").addEventListener("click", () => step(-1));
  $("next").addEventListener("click", () => step(1));
  $("odds-form").addEventListener("submit", submitOdds);
  document.addEventListener("keydown", onKey);
  window.addEventListener("hashchange", route);
  route();
  try {
    options = await api("/api/options");
    for (const id of ["presets", "odds-presets"]) {
      $(id).replaceChildren(...options.presets.map((p) =>
        el("option", { value: p.name === "auction-pitch" ? "" : p.name, title: p.title }, p.name)));
    }
    for (const id of ["setup", "odds-form"]) {
      $(id).elements.preset.addEventListener("change", () => fitPlayers($(id)));
      fitPlayers($(id));
    }
    for (const name of ["preset", "players"]) $("odds-form").elements[name].addEventListener("change", oddsDeal);
    for (const name of ["preset", "hand", "rules", "partnership"]) {
      $("odds-form").elements[name].addEventListener("input", oddsTrumps);
      $("odds-form").elements[name].addEventListener("change", oddsTrumps);
    }
    $("setup").elements.opponents.value = options.opponents; // the server's default strategy
    for (const name of ["preset", "players", "partnership", "rules", "opponents"]) {
      $("setup").elements[name].addEventListener("input", setupKitty);
      $("setup").elements[name].addEventListener("change", setupKitty);
    }
    setupKitty();
    oddsDeal();
    oddsTrumps();
    if ((location.hash || "").slice(1) === "odds") oddsFromGame();
    $("setup").elements.samples.placeholder = options.coach.samples;
    $("setup").elements.worlds.placeholder = options.coach.worlds;
  } catch (e) {
    showError(e.message);
  }
}

init();

// The phone at the table: installs the service worker, keeps the screen awake during a match, and
// keeps a tap the connection lost: its form says so and, carrying its step number (seq), sends itself
// again when the connection is back; a copy the server already has gets a 409 and the fresh state.
// Then the live updates (below). One script for every page: a second file would be a second request
// on a first visit, some 470 bytes more of a match page's cold load (headers, and what Brotli shares).
(() => {
  const say = document.currentScript.dataset;
  if ("serviceWorker" in navigator) addEventListener("load", () => navigator.serviceWorker.register(say.worker).catch(() => {}));

  let awake = null; // the wake lock (a promise) while held or asked for
  function keepAwake() {
    if (!navigator.wakeLock) return;
    const match = document.querySelector("[data-live-url]");
    if (match && !match.hasAttribute("data-finished") && document.visibilityState === "visible") {
      if (awake) return;
      const asked = awake = navigator.wakeLock.request("screen").then((lock) => {
        lock.addEventListener("release", () => { if (awake === asked) awake = null; });
        return lock;
      }, () => { if (awake === asked) awake = null; }); // refused (battery saver): the screen may dim
    } else if (awake) {
      awake.then((lock) => lock && lock.release());
      awake = null;
    }
  }
  keepAwake();
  document.addEventListener("visibilitychange", keepAwake);
  document.addEventListener("htmx:afterSettle", keepAwake); // the match may have ended
  addEventListener("pagehide", () => { if (awake) awake.then((lock) => lock && lock.release()); awake = null; });

  // The outcome region's close link reloads the page without JavaScript; with it, the note just goes.
  // A fold opened near the foot of the screen comes up: what it opened is in view, the summary still at the top
  // of what is shown (a fold taller than the screen: its summary at the top of the screen).
  document.addEventListener("click", (e) => {
    const fold = e.target.closest("summary")?.parentNode;
    if (fold) setTimeout(() => fold.open && fold.scrollIntoView({ block: "nearest" }));
    const close = e.target.closest("[data-dismiss]");
    if (!close) return;
    e.preventDefault();
    const keyboard = close.matches(":focus-visible");
    close.closest(".outcome-box").remove();
    if (keyboard) resume(document.getElementById("match"), {}); // back to the match's next step
  });

  // The outcome of a tap sits where the next step starts (the box is moved there, in the flow of the page), and
  // the page scrolls it to the top: its key line and the next control are in view together, and since it
  // covers nothing, no tap lands on it by mistake. Without JavaScript it stays held at the bottom of the screen.
  // Before a swap of #match it goes back to its own place, outside #match, so the swap never removes it.
  // A page opened at an address naming a part of the match (a link just made: #link-<id>, the share panel:
  // #share) has the box just above that part instead, so what it says and what it is about are in view together.
  const ofMatch = (e) => e.detail.target && e.detail.target.id === "match";
  // A form's or a button's request; the live updates' fetch is sent from #match itself, a pushed part by none.
  const own = (e) => ofMatch(e) && !!e.detail.requestConfig && e.detail.requestConfig.elt.id !== "match";
  // Another phone's change leaves what the player was looking at where it was on the screen: the field being typed
  // in, else the outcome box if it is on the screen (the news takes its place, the next step under it), else the
  // part with an id nearest the middle of the screen, is found again after the swap and the page moved by as much
  // as it moved (the browser's own scroll anchoring passes over #match, which a swap replaces whole; a unit played
  // above the table's forms moved them 800 px under a reader's eyes; held by a part under it, the box a player was
  // reading went 560 px above the screen with the news in it).
  // Before the outcome box leaves #match for the swap (below), as the page is shown.
  const region = document.getElementById("outcome");
  let held = null;
  document.addEventListener("htmx:beforeSwap", (e) => {
    held = null;
    if (!ofMatch(e) || own(e)) return;
    const top = (el) => el.getBoundingClientRect().top, middle = innerHeight / 2, typing = document.activeElement;
    const box = region && region.querySelector(".outcome-box"), read = box && box.getBoundingClientRect();
    const seen = typing && typing.id && e.detail.target.contains(typing) ? typing :
      read && read.bottom > 0 && read.top < innerHeight ? region :
      [...e.detail.target.querySelectorAll("[id]")].filter((el) => (!el.checkVisibility || el.checkVisibility()) && !el.closest("#outcome"))
        .reduce((best, el) => !best || Math.abs(top(el) - middle) < Math.abs(top(best) - middle) ? el : best, null);
    if (seen) held = [seen.id, top(seen)];
  });
  const hold = () => {
    const el = held && document.getElementById(held[0]);
    if (el && (!el.checkVisibility || el.checkVisibility())) scrollBy(0, el.getBoundingClientRect().top - held[1]);
  };
  const nextStep = (match) => {
    // A refused board form (its errors' slots filled, out of band or on a page drawn anew): the box goes above
    // it, so why, and the fields it concerns with their own why, are in view together.
    const refused = [...match.querySelectorAll("[data-field-errors]")].find((slot) => slot.textContent.trim());
    // Its reason names a fold with what to give next (board_forms.slot: data-opens): open.
    match.querySelectorAll("[data-field-errors] [data-opens]").forEach((why) => (document.getElementById(why.dataset.opens) || {}).open = true);
    // Above the form holding its first control: Evons' Pass, whose button stands in the play form (form="ev-pass").
    if (refused && refused.closest("form")) return refused.closest("form").elements[0].closest("form");
    const marked = match.querySelector("[data-next-step]");
    if (marked) return marked;
    const next = [...match.querySelectorAll("form[method=post], a.button-primary")].find((el) => el.checkVisibility() &&
      !el.closest(".controls, .share, .requests, #outcome"));
    return next || match.querySelector(".controls");
  };
  // At the top of the screen (no stylesheet makes a scroll smooth: at once), and again once the page has loaded
  // if it is still loading: a page a plain POST was sent back to, where the browser may still restore an old
  // scroll position; a stylesheet in the page's body may still change what lies above.
  const atTop = (el) => {
    const go = () => el.isConnected && el.scrollIntoView();
    go();
    if (document.readyState !== "complete") addEventListener("load", go);
  };
  function place(scroll, here) {
    const match = document.getElementById("match");
    if (!region || !match) return;
    const box = region.querySelector(".outcome-box");
    if (!box) return;
    let spot = match.contains(here) ? here : nextStep(match);
    // Not inside a row of a flex or grid container (a round's two cards) nor a list: before the row or the list.
    const inRow = (el) => el.tagName === "LI" || el.tagName === "TR" || (/flex|grid/.test(getComputedStyle(el.parentElement).display) &&
      !/column/.test(getComputedStyle(el.parentElement).flexDirection));
    while (spot && spot !== match && spot.parentElement !== match && inRow(spot)) spot = spot.parentElement;
    if (!spot || spot === match) return;
    if (region.nextElementSibling !== spot) spot.before(region);
    region.classList.add("outcome-docked");
    if (!scroll) return;
    region.classList.remove("outcome-news");
    atTop(region);
  }
  if (region) {
    document.addEventListener("htmx:beforeSwap", (e) => {
      const match = document.getElementById("match");
      if (match && match.contains(region) && e.detail.target && e.detail.target.contains(region)) {
        match.after(region);
        region.classList.remove("outcome-docked");
      }
    });
    // A new account of a tap (htmx fills the region out of band, a refusal alone among them): placed and shown at
    // once, in the same task as the swap, and again once the swap has settled (htmx settles 20 ms later, putting
    // back the answer's own classes on the parts of the same id, which may change what lies above the box; what
    // CI once saw, the box 17 to 58 px above the screen, was a game's stylesheet drawn again inside #match, now
    // linked outside it: tracker/games/base.py). Shown again by the settle of the request it came with, however
    // late a busy phone settles (a second was once too short); a card list's leaves it alone.
    // Only the answer to this player's own tap scrolls. Another phone's change (its part pushed or fetched, or its
    // news told: the box says it) docks the box where the next step starts and leaves the page where the player
    // is reading or typing: scrolled to each piece of news, a phone with a form half typed lost its place.
    let told = 0, sent = 0, mine = false;
    // Another phone's news docked below the screen (the player at the top of the board) would go unseen: it waits at
    // the foot of the screen instead (sticky, app.css) until the page comes to its place. Only what lies above that
    // place can be under it, never the next step, which follows it; nor while a field is typed in, which it could cover.
    const typing = (el) => el.matches(":read-write"); // a field that takes typing (not a radio)
    document.addEventListener("focusin", (e) => typing(e.target) && region.classList.remove("outcome-news"));
    new MutationObserver(() => {
      told = Date.now();
      place(mine);
      if (!mine && !typing(document.activeElement)) region.classList.add("outcome-news");
    }).observe(region, { childList: true });
    document.addEventListener("htmx:beforeRequest", (e) => { if (own(e)) sent = Date.now(); });
    document.addEventListener("htmx:beforeSwap", (e) => { if (ofMatch(e)) mine = own(e); });
    document.addEventListener("htmx:afterSettle", (e) => {
      if (!ofMatch(e)) return;
      place(mine && told >= sent);
      mine = false;
    });
    // Any swap of #match puts the box back in its place at once, before the page is drawn: a live update that
    // brings no new account (the box as it was) left it under the board until the settle, and for a frame or two
    // the page above it jumped by its height.
    document.addEventListener("htmx:afterSwap", (e) => { if (ofMatch(e)) place(false); });
    if (region.querySelector(".outcome-box")) history.scrollRestoration = "manual"; // it opens on the result
    place(true, document.getElementById(location.hash.slice(1))); // the page a plain POST was sent back to
  }

  // Held (above) once the box is back in its place: at the swap, and again at the settle.
  document.addEventListener("htmx:afterSwap", (e) => { if (ofMatch(e)) hold(); });
  document.addEventListener("htmx:afterSettle", (e) => { if (ofMatch(e)) hold(); held = null; });

  // A page whose game is its board (Evons) opens on it, when no result is to be told: the match's title and the
  // site's links are one scroll up, the board is in view from the start.
  // Again once loaded: the game's stylesheet, linked in the page's body, may still change what lies above it.
  const opens = document.querySelector("[data-opens-here]");
  if (opens && !(region && region.querySelector(".outcome-box"))) {
    atTop(opens);
  }

  // The keyboard keeps its place. An answer replaces a region (#match), the control that sent it included:
  // htmx puts the focus back on an element of the same id, and where there is none, it goes to where the next
  // step starts (the first field of the form of the same id, else of the first form that changes the match,
  // else the heading), never to <body>. Only when the focus showed (a keyboard's): a tap leaves the page be.
  const places = {}; // by the id of the region a request will replace: the control that had the focus
  document.addEventListener("htmx:beforeRequest", (e) => {
    const el = document.activeElement, id = e.detail.target && e.detail.target.id;
    if (id) places[id] = el && el.matches(":focus-visible") ? el : null;
  });
  const start = (form) => {
    const first = form && form.querySelector("input:not([type=hidden]):enabled, select:enabled, button:enabled");
    return (first && first.type === "radio" && form.querySelector("[name='" + first.name + "']:checked")) || first;
  };
  document.addEventListener("htmx:afterSettle", (e) => {
    const id = e.detail.target && e.detail.target.id, el = places[id];
    delete places[id];
    if (el && document.activeElement === document.body) resume(document.getElementById(id), el);
  });
  function resume(region, el) {
    if (!region) return;
    // htmx gives the focus back to the control of the same id only if the focus was still on the old one when
    // the answer came (a busy phone once had moved it to <body> by then: CI's replay, 2026-11-30).
    const same = el.id && document.getElementById(el.id), own = el.form && document.getElementById(el.form.id);
    if (same && region.contains(same)) return same.focus();
    // A match just ended has no next step: the focus goes to its result (the outcome box), not to <body>.
    const result = region.hasAttribute("data-finished") && region.querySelector("#outcome .outcome-box");
    if (result) result.tabIndex = -1;
    const next = start(own && region.contains(own) && own) || result ||
      start([...region.querySelectorAll("form[method=post]")].find((other) => !other.closest(".controls, #outcome"))) ||
      region.querySelector("h1");
    if (next && next.tagName === "H1") next.tabIndex = -1;
    if (next) next.focus();
  }

  // A board whose cells are radios (a table with data-grid): Up and Down move a row, in the same column. Left
  // and Right keep the browser's own way, along the cells in reading order.
  document.addEventListener("keydown", (e) => {
    const radio = e.target, step = { ArrowUp: -1, ArrowDown: 1 }[e.key];
    const grid = step && !(e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) && radio.type === "radio" &&
      radio.closest("table[data-grid]");
    if (!grid) return;
    e.preventDefault();
    const cell = radio.closest("td");
    for (let row = cell.parentElement.rowIndex + step; grid.rows[row]; row += step) {
      const next = grid.rows[row].cells[cell.cellIndex]?.querySelector("input[name='" + radio.name + "']:enabled");
      if (next) {
        next.focus();
        next.click(); // chosen, as the browser's own arrow keys choose
        return;
      }
    }
  });

  // A cell tapped on such a board asks for the card next: its form's empty card field takes the focus (its list
  // opens), so a play is the cell, the card and the button, with no tap on the field between. Where its rows are
  // kept parts (an Evons board's), a row with a radio picked, or no longer picked, as it was not drawn is not the
  // version it says: the next answer draws it anew, so another phone's change clears a pick, as it clears the card.
  document.addEventListener("change", (e) => {
    const radio = e.target, grid = radio.type === "radio" && radio.closest("table[data-grid]");
    for (const row of grid ? grid.querySelectorAll("tr[data-kept]") : []) {
      if ([...row.querySelectorAll("input[type=radio]")].some((one) => one.checked !== one.defaultChecked)) row.dataset.kept = "picked";
    }
    const field = grid && radio.form && radio.form.querySelector("input[data-picker]");
    if (field && !field.value.trim() && !e.target.matches(":focus-visible")) field.focus();
  });

  // Each part of the match that an action may leave as it was says which version the phone shows (data-kept),
  // so the answer to a tap leaves out the parts it would draw the same (tracker/templatetags/regions.py). The
  // part the tap came from is always drawn anew: the form just sent comes back empty.
  document.addEventListener("htmx:configRequest", (e) => {
    const match = e.detail.elt.closest && e.detail.elt.closest("#match");
    if (!match) return;
    if (e.detail.verb === "get") { // a field's list (a card picker's) or the live fetch: it changes nothing
      delete e.detail.parameters.seq; // the step from #match (hx-vals) goes with the forms that change the match
      if (e.detail.elt !== match) return; // the live fetch says what it shows, so what did not change stays
    }
    const shown = [...match.querySelectorAll("[data-kept]")].filter((part) => !part.contains(e.detail.elt))
      .map((part) => part.id + "=" + part.dataset.kept);
    if (shown.length) e.detail.headers["X-Shown"] = shown.join(" ");
  });

  // A refusal's errors come out of band into their fields' slots (tracker/templatetags/board_forms.py), the
  // rest of the page as the player left it: each control a slot describes says whether it is invalid now, and
  // a kept part holding a filled slot is no longer the version it says, so the next answer draws it anew.
  document.addEventListener("htmx:oobAfterSwap", () => {
    for (const slot of document.querySelectorAll("[data-field-errors]")) {
      const refused = slot.textContent.trim() !== "";
      for (const control of document.querySelectorAll("[aria-describedby~='" + slot.id + "']")) {
        if (refused) control.setAttribute("aria-invalid", "true"); else control.removeAttribute("aria-invalid");
      }
      const part = refused && slot.closest("[data-kept]");
      if (part) part.dataset.kept = "refused";
    }
  });

  const WAITS = [1000, 2000, 4000, 8000, 15000, 30000];
  const lost = (xhr) => !xhr.status || xhr.status > 501 && xhr.status < 505; // no answer, or the proxy had none
  document.addEventListener("submit", (e) => { e.target.tapped = e.submitter; }, true);

  // Under the button tapped (a long form's end is off the screen: Evons' under its board), seen.
  function note(form, text) {
    let line = form.note, at = form.tapped;
    if (!line || !line.isConnected) {
      line = form.note = document.createElement("p");
      line.className = "net-note";
      line.setAttribute("role", "alert");
      at && at.isConnected ? at.after(line) : form.append(line);
    }
    line.textContent = text;
    line.scrollIntoView({ block: "nearest" });
  }
  function resend(form) {
    clearTimeout(form.timer);
    if (!form.isConnected || !form.hasAttribute("data-retry-pending")) return;
    form.tries = (form.tries || 0) + 1;
    note(form, say.sending);
    const button = form.tapped; // the same button again: its name and value go too
    if (button && button.isConnected && button.form === form) button.click(); else form.requestSubmit();
  }
  // Only a form's own POST is sent again: a GET from a field inside it (a card picker's list) never is.
  const posted = (e) => !e.detail.requestConfig || e.detail.requestConfig.verb !== "get";
  function failed(e) {
    if (!posted(e)) return;
    const form = e.detail.elt.closest("form[method=post]");
    if (!form || !lost(e.detail.xhr)) return;
    if (!form.querySelector("[name=seq]")) return note(form, say.manual);
    form.setAttribute("data-retry-pending", ""); // the live updates wait for it (below)
    note(form, say.waiting);
    clearTimeout(form.timer);
    if (navigator.onLine) form.timer = setTimeout(() => resend(form), WAITS[Math.min(form.tries || 0, 5)]);
  }
  ["htmx:sendError", "htmx:timeout", "htmx:responseError"].forEach((name) => document.addEventListener(name, failed));
  document.addEventListener("htmx:afterRequest", (e) => {
    const form = posted(e) && e.detail.elt.closest("form");
    if (form && !lost(e.detail.xhr)) { form.removeAttribute("data-retry-pending"); form.tries = 0; forget(); }
  });

  // A tap still waiting survives a reload: it is kept on the phone (localStorage, per page) with what it was,
  // the page it is on says so when it opens again, and sends it once when the connection is back, as a plain
  // POST carrying its step number (seq), so the server counts it at most once whatever happened to it before.
  const KEPT = "tk-unsent:" + location.pathname;
  function forget() { try { localStorage.removeItem(KEPT); } catch { /* storage off: nothing was kept */ } }
  function keep(form) {
    const button = form.tapped && form.tapped.form === form ? form.tapped : null;
    const fields = [...new FormData(form, button)].filter(([, value]) => typeof value === "string");
    const label = (button || form.querySelector("[type=submit]") || form).textContent.replace(/\s+/g, " ").trim();
    try {
      localStorage.setItem(KEPT, JSON.stringify({ url: form.getAttribute("hx-post") || form.action, fields, label }));
    } catch { /* storage full or off: the form on the page still waits */ }
  }
  document.addEventListener("htmx:sendError", (e) => {
    const form = posted(e) && e.detail.elt.closest("form[method=post]");
    if (form && form.querySelector("[name=seq]")) keep(form);
  });
  function sendKept() {
    let tap = null;
    try { tap = JSON.parse(localStorage.getItem(KEPT)); } catch { return; }
    const match = document.getElementById("match");
    if (!tap || !match) return;
    if (tap.sending) return forget(); // this page is the server's answer to it: it was sent
    let line = document.getElementById("unsent");
    if (!line) {
      line = match.insertAdjacentElement("afterbegin", document.createElement("p"));
      line.id = "unsent";
      line.className = "net-note";
      line.setAttribute("role", "alert");
    }
    line.textContent = (navigator.onLine ? say.sending : say.waiting) + " (" + tap.label + ")";
    if (!navigator.onLine) return;
    const form = document.body.appendChild(document.createElement("form"));
    form.method = "post";
    form.action = tap.url;
    for (const [name, value] of tap.fields) {
      const field = form.appendChild(document.createElement("input"));
      field.type = "hidden";
      field.name = name;
      field.value = value;
    }
    localStorage.setItem(KEPT, JSON.stringify({ ...tap, sending: true }));
    form.submit();
  }
  sendKept();
  addEventListener("online", () => document.querySelector("form[data-retry-pending]") || sendKept());
  addEventListener("online", () => document.querySelectorAll("form[data-retry-pending]").forEach((form) => {
    form.tries = 0;
    resend(form);
  }));
})();

// Live updates. A page following a match (the match page, its log) holds one stream of server-sent events
// (#live's data-stream, the browser's own EventSource; tracker/matches/live.py): each event names the match's
// new version and what happened, and brings the part of this page the change draws anew, drawn for this phone
// (put, below); without one, the page fetches its part through htmx. It says what happened in the outcome
// region. An event for a version the page already shows (the player's own tap) changes nothing, so nothing is
// shown twice. The browser reconnects a dropped stream by itself, sending the last version it heard
// (Last-Event-ID); htmx's SSE extension would only have wrapped these few lines in 1.2 KB more to load.
//
// Only while the stream is not open, or has been silent for longer than STALL (#live's data-stall: two of the
// server's beats, every 15 s, and 5 s more), does the page ask every 2 seconds instead (a 204 with no body
// when nothing changed), and #live says so. A
// silent stream is closed and opened again, and one the browser gave up on (an error answer, a proxy's
// 502) is tried again after REOPEN; its URL carries the version the page shows, so the server sends at once
// what was missed while away.
//
// Nothing is fetched while the page is hidden or the phone offline, or while a tap waits to be sent again
// (table.js: its answer brings the fresh state); the page catches up when back. A finished match keeps its
// stream (an undo, a confirmation, a void may follow) but neither polls nor says how it listens
// (data-finished); a page whose match is gone or no longer shown to it stops (data-live-stop).
(function () {
  var PERIOD = 2000, STALL = 35000, REOPEN = 10000;
  var opened = 0, heard = 0, wanted = 0, said = "", source = null;

  function match() { return document.querySelector("[data-live-url]"); }
  function shown() { var el = match(); return el ? Number(el.getAttribute("data-live-version")) : 0; }
  function streaming() { return source && source.readyState === 1 && Date.now() - heard < STALL; }
  // A tap waiting or under way holds the page back (its answer brings the state); a card field asking for its
  // list (an input's request) changes nothing, and does not.
  function idle() {
    var el = match();
    return el && !el.hasAttribute("data-live-stop") && !(document.visibilityState !== "visible") && navigator.onLine &&
      !document.querySelector("[data-retry-pending], .htmx-request:not(input)");
  }

  function status() {
    var live = document.getElementById("live"), el = match();
    if (!live) return;
    live.hidden = !el || el.matches("[data-live-stop],[data-finished]"); // a match ended: nothing to say
    var line = live.querySelector(".live-status"), on = streaming();
    var text = on ? live.getAttribute("data-live-on") : live.getAttribute("data-live-off");
    if (line.textContent !== text) { line.textContent = text; line.setAttribute("data-live", on ? "on" : "off"); }
  }

  // The refreshed part already says it (the page's news is the sentence the stream pushed): left as the server
  // drew it. Otherwise (a change nobody at the table made, or an older box still showing) a box says it, made
  // from the page's own (#live-news, live_status.html): the same box the server draws, with its Close.
  function tell(text) {
    var region = document.getElementById("outcome"), news = document.getElementById("live-news");
    if (!region || !news || !text || region.textContent.indexOf(text) !== -1) return;
    news = news.content.cloneNode(true);
    news.querySelector("p").lastChild.textContent = text;
    region.replaceChildren(news);
  }

  // Fetch the fresh #match (or the page, without htmx), once the page may.
  function refresh() {
    if (!idle() || wanted <= shown()) return;
    var el = match(), target = el.getAttribute("data-live-target"), message = said;
    if (!target || !window.htmx) { window.location.reload(); return; }
    // Sent from #match, it goes with #match's headers and says which parts the page shows (above).
    window.htmx.ajax("GET", location.pathname + location.search, { source: el, target: target, swap: "outerHTML" })
      .then(function () { shows(message); });
  }
  // Once the page shows the newest change: what it was, said unless the page says it already. (Its status line
  // follows each swap: htmx:afterSwap, below.)
  function shows(message) {
    if (shown() >= wanted && message === said) { tell(message); said = ""; }
  }

  // The part pushed with the change, drawn for this phone as its fetch would be: swapped in as that fetch's
  // answer, with the same events, so nothing is fetched. A kept part the phone shows as drawn stays as shown (an
  // open fold, a half-typed field); one the server left out that the phone no longer shows so, and a page busy
  // with a tap, fetch instead. (Each kept part starts as tracker/templatetags/regions.py writes it.)
  function put(html) {
    var el = match(), target = el && document.querySelector(el.getAttribute("data-live-target")),
      info = { target: target }, ok = target && window.htmx && idle();
    html = html.replace(/ id="([^"]+)" data-kept="([^"]+)"( hx-preserve)?/g, function (tag, id, kept, left) {
      var old = document.getElementById(id), same = old && old.dataset.kept === kept;
      if (left && !same) ok = false;
      return same && !left ? tag + " hx-preserve" : tag;
    });
    if (ok) {
      htmx.trigger(el, "htmx:beforeSwap", info);
      htmx.swap(target, html, { swapStyle: "outerHTML" }, { eventInfo: info });
      shows(said);
    }
    return ok;
  }

  // The stream, from the version the page shows.
  function connect() {
    var live = document.getElementById("live"), url = live && live.getAttribute("data-stream"), el = match();
    if (!url || !el || el.hasAttribute("data-live-stop")) return;
    STALL = Number(live.getAttribute("data-stall")) || STALL;
    opened = Date.now();
    source = new EventSource(url.replace(/\?v=\d*/, "?v=" + shown()));
    source.onopen = function () { heard = Date.now(); status(); };
    source.onerror = status;
    source.addEventListener("beat", function () { heard = Date.now(); status(); });
    source.addEventListener("change", function (e) {
      heard = Date.now();
      var change = JSON.parse(e.data);
      if (change.version <= shown()) return; // the page shows it already: its own tap's answer brought it
      if (change.version > wanted) { wanted = change.version; said = change.said; }
      if (!(change.part && change.version === wanted && put(change.part))) refresh();
    });
    source.addEventListener("gone", function () { source.close(); window.location.reload(); });  // access revoked
  }
  // A refused fetch (access revoked, the match deleted): show what the server says now.
  document.addEventListener("htmx:responseError", function (e) {
    var code = e.detail.xhr && e.detail.xhr.status;
    if (code === 403 || code === 404 || code === 410) window.location.reload();
  });

  // A stream silent for too long: close it and open a new one. One the browser gave up on: again, now and then.
  function reopen() {
    if (!source || !idle()) return;
    var closed = source.readyState === 2;
    if (closed ? Date.now() - opened < REOPEN : Date.now() - Math.max(heard, opened) < STALL) return;
    source.close();
    connect();
  }

  // The poll: only while there is no working stream.
  function tick() {
    status();
    reopen();
    var el = match();
    if (!idle()) return;
    if (streaming()) { refresh(); return; }
    if (el.hasAttribute("data-finished")) return; // rare changes: no poll for a page left open on a result
    var asked = el.getAttribute("data-live-version");
    var url = el.getAttribute("data-live-url") + "?v=" + encodeURIComponent(asked);
    fetch(url, { credentials: "same-origin", headers: { "Accept": "application/json" } }).then(function (response) {
      // Already fresh (the player's own change): a reload would wipe their new picks.
      var now = match();
      if ((now && now.getAttribute("data-live-version") !== asked) || document.querySelector(".htmx-request")) return;
      if (response.status === 403 || response.status === 404 || response.status === 410) {
        // Access was revoked or the match is gone: show what the server says now, and stop asking.
        el.setAttribute("data-live-stop", "");
        window.location.reload();
        return;
      }
      if (response.status !== 200) return;
      return response.json().then(function (change) { wanted = Math.max(wanted, change.version); refresh(); });
    }).catch(function () { /* offline for a moment: the next tick tries again */ });
  }
  connect();
  setInterval(tick, PERIOD);
  document.addEventListener("visibilitychange", tick);
  window.addEventListener("online", tick);
  // At the swap, not the settle: the line goes when the match ends, and the page, scrolled to the result near its
  // foot, moved down by the line's height 20 ms after it was drawn.
  document.addEventListener("htmx:afterSwap", status);
})();

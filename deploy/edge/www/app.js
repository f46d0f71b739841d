"use strict";
// Keeps the server-rendered page live from /api/stream. A view only: every text comes worded in
// the event's "view" object (the server's presenter); this script places the texts and writes
// the time in the viewer's own zone.
(() => {
  const panel = document.getElementById("panel");
  if (!panel) return;
  const $ = (id) => document.getElementById(id);

  // An ISO 8601 instant's parts in the viewer's own time zone, as `format` names them; null
  // for anything that is not an instant.
  const partsOf = (format, iso) => {
    const date = new Date(iso);
    if (Number.isNaN(date.getTime())) return null;
    const part = {};
    for (const { type, value } of format.formatToParts(date)) part[type] = value;
    return part;
  };
  // Nov 22, 14:03:05, the presenter's pattern.
  const clock = new Intl.DateTimeFormat("en-US", {
    month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", second: "2-digit",
    hourCycle: "h23",
  });
  const when = (iso) => {
    const part = partsOf(clock, iso);
    return part && `${part.month} ${part.day}, ${part.hour}:${part.minute}:${part.second}`;
  };
  // 18:00: the day chart's time marks, which the server worded in its own zone (the page
  // draws only the day).
  const hourClock = new Intl.DateTimeFormat("en-US", {
    hour: "2-digit", minute: "2-digit", hourCycle: "h23",
  });
  const timeOfDay = (iso) => {
    const part = partsOf(hourClock, iso);
    return part && `${part.hour}:${part.minute}`;
  };
  const setTime = (element, iso, fallback) => {
    element.textContent = (iso && when(iso)) || fallback;
    if (iso) element.setAttribute("datetime", iso);
    else element.removeAttribute("datetime");
  };

  let lastData = panel.dataset.json || "";
  let lastAnnounced = Date.now();
  const announce = (text) => {
    $("announcer").textContent = text;
    lastAnnounced = Date.now();
  };

  const show = (view) => {
    const wasPhase = panel.dataset.state;
    panel.dataset.state = view.phase;
    panel.dataset.direction = view.direction;
    $("pair").textContent = view.pair;
    $("price").textContent = view.price;
    $("change").textContent = view.change;
    $("updated-text").textContent = view.updated;
    setTime($("time"), view.timestamp, view.time);
    setTime($("banner-time"), view.timestamp, view.time);
    $("from").hidden = view.source === null;
    $("source").textContent = view.source || "";
    $("banner").hidden = view.banner === null;
    $("banner-text").textContent = view.banner || "";
    $("sparkline-line").setAttribute("points", view.sparkline);
    $("sparkline").setAttribute("aria-label", view.sparklineLabel);
    // The 24-hour change and the day's chart, placed as the presenter sent them (an older
    // publisher's events have neither: both stay hidden).
    const day = $("change24h");
    day.hidden = !view.change24h;
    day.textContent = view.change24h || "";
    day.dataset.direction = view.change24hDirection || "none";
    // What a unit of the currency buys in satoshis (an older publisher's events have none).
    $("sats").hidden = !view.sats;
    $("sats").textContent = view.sats || "";
    const chart = view.chart || null;
    $("chart").hidden = !chart;
    $("sparkline").toggleAttribute("hidden", !!chart);
    if (chart) {
      $("chart").dataset.direction = chart.direction;
      $("chart-title").textContent = chart.title;
      $("chart-age").hidden = !chart.age;
      $("chart-age").textContent = chart.age || "";
      $("chart-line").setAttribute("points", chart.line);
      $("chart-area").setAttribute("points", chart.area);
      $("chart-svg").setAttribute("aria-label", chart.label);
      $("chart-high").textContent = chart.high;
      $("chart-low").textContent = chart.low;
      $("chart-times").replaceChildren(...(chart.times || []).map((mark) => {
        const span = document.createElement("span");
        span.className = "at-" + mark.at;
        span.textContent = (mark.time && timeOfDay(mark.time)) || mark.text;
        if (mark.time) span.dataset.time = mark.time;
        return span;
      }));
    }
    document.title = view.title;
    // Screen readers hear changes of state at once and the price at most once a minute.
    if (view.phase !== wasPhase) {
      announce(view.phase === "stale" ? $("banner").textContent : view.announceState);
    } else if (view.phase === "fresh" && Date.now() - lastAnnounced > 60000) {
      announce(view.announcePrice);
    }
  };

  // The server wrote its times in UTC, and the chart's marks in its own zone; show them in
  // the viewer's.
  for (const id of ["time", "banner-time"]) {
    const element = $(id);
    const iso = element && element.getAttribute("datetime");
    if (iso) element.textContent = when(iso) || element.textContent;
  }
  for (const span of document.querySelectorAll("#chart-times span[data-time]")) {
    span.textContent = timeOfDay(span.dataset.time) || span.textContent;
  }

  // The alerts a tick fired (serve's --alert rules), as notifications where the viewer allowed
  // them; the words are the server's.
  const notifyAlerts = (data) => {
    if (!Array.isArray(data.alerts) || !window.Notification) return;
    if (Notification.permission !== "granted") return;
    for (const alert of data.alerts) {
      try { new Notification(alert.title, { body: alert.body, tag: alert.rule }); } catch (_) { /* not here */ }
    }
  };

  // Browsers ask for notifications only on a click: offer the button while undecided. The
  // viewer may decide elsewhere too (the site settings), so each event checks again.
  const notify = $("notify");
  const offerNotifications = () => {
    if (notify) notify.hidden = !(window.Notification && Notification.permission === "default");
  };
  if (notify && window.Notification) {
    offerNotifications();
    notify.addEventListener("click", () => {
      Notification.requestPermission().then(offerNotifications, offerNotifications);
    });
  }

  // Where nothing tells the page that its publisher is gone (an edge, whose engine goes quiet
  // with it), the page notices by itself: no valid event for the presenter's silentAfter, and
  // the last price shows with the stale banner, in the presenter's words, until the next one.
  let heard = Date.now();
  let silenced = false;
  let lastView = null;
  try {
    const initial = JSON.parse(lastData || "null");
    lastView = (initial && initial.view) || null;
  } catch (_) { /* no state rendered: nothing to turn stale */ }
  if (!window.EventSource) return;
  let source = null;
  let retry = null;
  const connect = () => {
    source = new EventSource("/api/stream");
    source.addEventListener("price", (message) => {
      $("connection").hidden = true;
      let data = null;
      try { data = JSON.parse(message.data); } catch (_) { return; /* a malformed event changes nothing */ }
      if (!data || typeof data !== "object" || !data.view || typeof data.view.price !== "string") return;
      heard = Date.now();
      if (message.data === lastData && !silenced) return;
      lastData = message.data;
      silenced = false;
      lastView = data.view;
      try {
        show(data.view);
        notifyAlerts(data);
        offerNotifications();
      } catch (_) { /* a view missing a text changes nothing more */ }
    });
    source.onopen = () => { $("connection").hidden = true; };
    source.onerror = () => {
      $("connection").hidden = false;
      // EventSource retries by itself after network errors, but gives up for good after an HTTP
      // error or a wrong content type (a proxy's error page): then start again ourselves.
      if (source.readyState === EventSource.CLOSED) {
        source.close();
        clearTimeout(retry);
        retry = setTimeout(connect, 2000 + Math.random() * 3000);
      }
    };
  };
  connect();

  // Silence: the last price with the banner, at once; and after 30 to 45 s of it (never in
  // step with other viewers), the stream opened anew, and again as long as it lasts, in case
  // this connection is the one that went quiet (an edge that lost its Redis, a proxy that
  // dropped it without a word). A server that restarts is EventSource's own to reconnect.
  let reopened = Date.now();
  let reopenAfter = 30000 + Math.random() * 15000;
  setInterval(() => {
    const limit = lastView && lastView.silentAfter > 0 ? lastView.silentAfter : 0;
    if (!limit || Date.now() - heard <= limit) return;
    if (!silenced && lastView.phase === "fresh") {
      silenced = true;
      show(Object.assign({}, lastView, { phase: "stale", banner: lastView.silentBanner }));
    }
    if (Date.now() - heard > reopenAfter && Date.now() - reopened > reopenAfter) {
      reopened = Date.now();
      reopenAfter = 30000 + Math.random() * 15000;
      source.close();
      connect();
    }
  }, 1000);
})();
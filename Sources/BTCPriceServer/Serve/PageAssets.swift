import BTCPriceCore

/// The page's static files, compiled into the binary so the server needs no folder of its own and
/// the page loads nothing from anywhere else.
package enum PageAssets {
  /// `/app.js`: served as a file (not inline) so the Content-Security-Policy can forbid every
  /// inline script.
  package static let script = #"""
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
    """#

  /// `/app.css`, for the same reason: `style-src 'self'` and no inline styles.
  package static let stylesheet = #"""
    :root {
      color-scheme: light dark;
      --background: #f6f7f9;
      --text: #111418;
      --muted: #59636e;
      --up: #0a7a32;
      --down: #c21f1f;
      --banner-background: #ffd54f;
      --banner-text: #111418;
      --accent: #d9770b;
    }
    @media (prefers-color-scheme: dark) {
      :root {
        --background: #0d1117;
        --text: #f0f3f6;
        --muted: #9aa5b1;
        --up: #3fb950;
        --down: #ff7b72;
        --accent: #f7931a;
      }
    }
    * { box-sizing: border-box; }
    [hidden] { display: none !important; }
    html, body { margin: 0; min-height: 100%; }
    body {
      min-height: 100vh;
      display: flex;
      align-items: center;
      justify-content: center;
      padding: max(1rem, env(safe-area-inset-top)) max(1rem, env(safe-area-inset-right))
        max(1rem, env(safe-area-inset-bottom)) max(1rem, env(safe-area-inset-left));
      background: var(--background);
      color: var(--text);
      font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
    }
    main { width: 100%; text-align: center; }
    p { margin: 0.4em 0; }
    .pair { font-size: clamp(1rem, 3vw, 3rem); letter-spacing: 0.12em; color: var(--muted); }
    .price {
      /* "$114,721.34" is about 7 em wide: 12.5vw keeps it on one line from a phone to a wall. */
      font-size: clamp(2.4rem, min(12.5vw, 32vh), 24rem);
      font-weight: 700;
      line-height: 1.05;
      white-space: nowrap;
      font-variant-numeric: tabular-nums;
      margin: 0.1em 0;
    }
    .change { font-size: clamp(1rem, 3.5vw, 3.5rem); min-height: 1.25em; font-variant-numeric: tabular-nums; }
    [data-direction="up"] .price, [data-direction="up"] .change { color: var(--up); }
    [data-direction="down"] .price, [data-direction="down"] .change { color: var(--down); }
    [data-state="stale"] .price { opacity: 0.75; }
    .updated { font-size: clamp(0.95rem, 2.4vw, 2.4rem); color: var(--muted); }
    .banner {
      display: inline-block;
      max-width: 100%;
      padding: 0.6em 1em;
      border-radius: 0.5em;
      background: var(--banner-background);
      color: var(--banner-text);
      font-size: clamp(0.95rem, 2.4vw, 2.4rem);
      font-weight: 600;
    }
    .sparkline { display: block; width: 100%; height: clamp(3.5rem, 16vh, 14rem); margin-top: 1em; color: var(--accent); }
    .change24h { font-size: clamp(0.95rem, 2.6vw, 2.6rem); font-variant-numeric: tabular-nums; }
    .sats { font-size: clamp(0.85rem, 2vw, 1.6rem); opacity: 0.75; font-variant-numeric: tabular-nums; }
    .change24h[data-direction="up"], .chart[data-direction="up"] { color: var(--up); }
    .change24h[data-direction="down"], .chart[data-direction="down"] { color: var(--down); }
    .chart { margin: 1em 0 0; color: var(--accent); }
    .chart figcaption { color: var(--muted); font-size: clamp(0.85rem, 2vw, 2rem); margin-bottom: 0.3em; }
    .chart-age { font-weight: 600; }
    .chart-box { position: relative; }
    .chart svg { display: block; width: 100%; height: clamp(6rem, 24vh, 26rem); }
    .chart-area { fill: currentColor; opacity: 0.12; }
    .chart-high, .chart-low {
      position: absolute;
      left: 0.3em;
      color: var(--muted);
      font-size: clamp(0.75rem, 1.7vw, 1.7rem);
      font-variant-numeric: tabular-nums;
      background: var(--background);
      padding: 0 0.25em;
      border-radius: 0.25em;
    }
    .chart-high { top: 0.2em; }
    .chart-low { bottom: 0.2em; }
    .chart-times { position: relative; height: 1.6em; color: var(--muted); font-size: clamp(0.75rem, 1.7vw, 1.7rem); }
    .chart-times span { position: absolute; top: 0.2em; transform: translateX(-50%); white-space: nowrap; }
    \#(PageAssets.timePositions)
    .connection, .noscript, .alerts { color: var(--muted); font-size: clamp(0.85rem, 2vw, 1.6rem); }
    .alerts button { font: inherit; margin-left: 0.5em; }
    .visually-hidden {
      position: absolute;
      width: 1px;
      height: 1px;
      overflow: hidden;
      clip: rect(0 0 0 0);
      white-space: nowrap;
    }
    """#

  /// `.at-0 { left: 0%; }` … `.at-100 { left: 100%; }`: where the chart's time marks go (the
  /// presenter gives each its whole percent), in the stylesheet because the page allows no
  /// inline style.
  /// A mark within 5 % of an edge is kept inside the box: it starts at its place near the left
  /// edge and ends there near the right one, instead of centred on it.
  static let timePositions = (0...100).map { percent in
    let inside =
      percent <= 5 ? " transform: none;" : percent >= 95 ? " transform: translateX(-100%);" : ""
    return ".chart-times .at-\(percent) { left: \(percent)%;\(inside) }"
  }.joined(separator: "\n")

  /// `/icon.svg`: the home-screen and tab icon.
  package static let icon = #"""
    <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512"><rect width="512" height="512" rx="96" fill="#f7931a"/><path fill="#fff" d="M210 112h36v40h24v-40h36v44c46 8 74 34 74 72 0 26-14 46-38 56 32 10 50 34 50 66 0 46-36 78-92 82v48h-36v-46h-24v46h-36v-46h-62v-36h30V192h-30v-36h68zm30 80v72h52c24 0 38-14 38-36s-14-36-38-36zm0 108v80h60c28 0 44-16 44-40s-16-40-44-40z"/></svg>
    """#

  /// `/manifest.webmanifest`, so the page can be added to a home screen, named for the run's
  /// currency.
  package static func manifest(_ currency: Currency) -> String {
    ##"{"name":"Bitcoin price","short_name":"BTC price","description":"The Bitcoin price in "##
      + currency.code
      + ##", live.","start_url":"/","scope":"/","display":"standalone","background_color":"#0d1117","##
      + ##""theme_color":"#f7931a","icons":[{"src":"/icon.svg","sizes":"any","##
      + ##""type":"image/svg+xml","purpose":"any maskable"}]}"##
  }

}

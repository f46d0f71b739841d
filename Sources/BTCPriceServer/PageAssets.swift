/// The page's static files, compiled into the binary so the server needs no folder of its own and
/// the page loads nothing from anywhere else.
enum PageAssets {
  /// `/app.js`: served as a file (not inline) so the Content-Security-Policy can forbid every
  /// inline script.
  static let script = #"""
    "use strict";
    // Keeps the server-rendered page live from /api/stream. Prices are exact decimal strings: they are
    // formatted with BigInt (never through floating point) the way the command line formats them.
    (() => {
      const panel = document.getElementById("panel");
      if (!panel) return;
      const $ = (id) => document.getElementById(id);
      const sources = {};
      for (const pair of (panel.dataset.sources || "").split(";")) {
        const [id, name] = pair.split("=");
        if (id) sources[id] = name;
      }

      const SCALE = 12;
      const units = (text) => {
        const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text || "");
        if (!match) return null;
        const value = BigInt(match[2] + (match[3] || "").padEnd(SCALE, "0").slice(0, SCALE));
        return match[1] ? -value : value;
      };
      // $68,901.23, €68,901.23, ¥10,512,345: the run's currency symbol, rounded half away from
      // zero to its minor units, grouped with commas, in every locale.
      const symbol = panel.dataset.symbol || "$";
      const minor = Number(panel.dataset.minorUnits || "2");
      const pair = panel.dataset.pair || "BTC/USD";
      const money = (value) => {
        const negative = value < 0n;
        const magnitude = negative ? -value : value;
        const step = 10n ** BigInt(SCALE - minor);
        let units = magnitude / step;
        if ((magnitude % step) * 2n >= step) units += 1n;
        const scale = 10n ** BigInt(minor);
        const whole = (units / scale).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ",");
        const fraction = minor > 0 ? "." + (units % scale).toString().padStart(minor, "0") : "";
        return (negative ? "-" : "") + symbol + whole + fraction;
      };
      // Nov 22, 14:03:05 in the viewer's own time zone, like the command line.
      const clock = new Intl.DateTimeFormat("en-US", {
        month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", second: "2-digit",
        hourCycle: "h23",
      });
      const when = (iso) => {
        const date = new Date(iso);
        if (Number.isNaN(date.getTime())) return "-";
        const part = {};
        for (const { type, value } of clock.formatToParts(date)) part[type] = value;
        return `${part.month} ${part.day}, ${part.hour}:${part.minute}:${part.second}`;
      };
      const setTime = (element, iso) => {
        element.textContent = iso ? when(iso) : "-";
        if (iso) element.setAttribute("datetime", iso);
        else element.removeAttribute("datetime");
      };

      const spark = (panel.dataset.sparkline || "").split(" ").filter(Boolean).map(Number);
      const drawSparkline = () => {
        const line = $("sparkline-line");
        if (!line) return;
        const low = Math.min(...spark);
        const span = Math.max(...spark) - low;
        const step = spark.length > 1 ? 600 / (spark.length - 1) : 0;
        line.setAttribute("points", spark.map((value, index) => {
          const y = span > 0 ? 95 - ((value - low) / span) * 90 : 50;
          return `${(index * step).toFixed(1)},${y.toFixed(1)}`;
        }).join(" "));
        $("sparkline").setAttribute("aria-label", `Price over the last ${spark.length} ticks`);
      };

      let lastData = panel.dataset.json || "";
      let shown = null;
      try { shown = JSON.parse(lastData); } catch (_) { shown = null; }
      let lastAnnounced = 0;
      const announce = (text) => {
        $("announcer").textContent = text;
        lastAnnounced = Date.now();
      };

      const show = (update) => {
        const value = update.price === null ? null : units(update.price);
        const previous = shown && shown.price !== null ? units(shown.price) : null;
        const state = value === null ? "empty" : update.stale ? "stale" : "fresh";
        const wasState = panel.dataset.state;
        panel.dataset.state = state;
        const priceText = value === null ? "-" : money(value);
        $("price").textContent = priceText;
        let direction = "none";
        let change = "";
        if (value !== null && previous !== null) {
          const difference = value - previous;
          direction = difference > 0n ? "up" : difference < 0n ? "down" : "unchanged";
          change = direction === "up" ? "▲ +" + money(difference)
            : direction === "down" ? "▼ -" + money(-difference) : "• unchanged";
        }
        panel.dataset.direction = direction;
        $("change").textContent = change;
        setTime($("time"), update.timestamp);
        setTime($("banner-time"), update.timestamp);
        $("from").hidden = value === null;
        $("source").textContent = sources[update.source] || update.source || "";
        $("banner").hidden = !update.stale;
        if (!update.stale && value !== null) {
          spark.push(Number(update.price));
          if (spark.length > 60) spark.splice(0, spark.length - 60);
          drawSparkline();
        }
        document.title = value === null ? pair : `${priceText} · ${pair}`;
        // Screen readers hear changes of state at once and the price at most once a minute.
        if (state !== wasState) {
          announce(state === "stale" ? $("banner").textContent
            : state === "fresh" ? `Bitcoin price ${priceText}, updating again` : "Bitcoin price unavailable");
        } else if (state === "fresh" && Date.now() - lastAnnounced > 60000) {
          announce(`Bitcoin price ${priceText}`);
        }
        shown = update;
      };

      // The server wrote its times in UTC; show them in the viewer's zone.
      for (const id of ["time", "banner-time"]) {
        const element = $(id);
        const iso = element && element.getAttribute("datetime");
        if (iso) element.textContent = when(iso);
      }
      lastAnnounced = Date.now();

      // The alerts a tick fired (serve's --alert rules), as notifications where the viewer allowed
      // them; the words are the server's.
      const notifyAlerts = (update) => {
        if (!Array.isArray(update.alerts) || !window.Notification) return;
        if (Notification.permission !== "granted") return;
        for (const alert of update.alerts) {
          try { new Notification(alert.title, { body: alert.body, tag: alert.rule }); } catch (_) { /* not here */ }
        }
      };

      if (!window.EventSource) return;
      let source = null;
      let retry = null;
      const connect = () => {
        source = new EventSource("/api/stream");
        source.addEventListener("price", (message) => {
          $("connection").hidden = true;
          if (message.data === lastData) return;
          lastData = message.data;
          try {
            const update = JSON.parse(message.data);
            show(update);
            notifyAlerts(update);
          } catch (_) { /* a malformed event changes nothing */ }
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
    })();
    """#

  /// `/app.css`, for the same reason: `style-src 'self'` and no inline styles.
  static let stylesheet = #"""
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
    .connection, .noscript, .alerts { color: var(--muted); font-size: clamp(0.85rem, 2vw, 1.6rem); }
    .visually-hidden {
      position: absolute;
      width: 1px;
      height: 1px;
      overflow: hidden;
      clip: rect(0 0 0 0);
      white-space: nowrap;
    }
    """#

  /// `/icon.svg`: the home-screen and tab icon.
  static let icon = #"""
    <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512"><rect width="512" height="512" rx="96" fill="#f7931a"/><path fill="#fff" d="M210 112h36v40h24v-40h36v44c46 8 74 34 74 72 0 26-14 46-38 56 32 10 50 34 50 66 0 46-36 78-92 82v48h-36v-46h-24v46h-36v-46h-62v-36h30V192h-30v-36h68zm30 80v72h52c24 0 38-14 38-36s-14-36-38-36zm0 108v80h60c28 0 44-16 44-40s-16-40-44-40z"/></svg>
    """#

  /// `/manifest.webmanifest`, so the page can be added to a home screen.
  static let manifest = #"""
    {"name":"Bitcoin price","short_name":"BTC price","description":"The Bitcoin price in US dollars, live.","start_url":"/","scope":"/","display":"standalone","background_color":"#0d1117","theme_color":"#f7931a","icons":[{"src":"/icon.svg","sizes":"any","type":"image/svg+xml","purpose":"any maskable"}]}
    """#
}

// The host's panel on the table page: shown only in the browser that created the table (the host
// token is kept in localStorage as parlor.host.<table id>). For each human seat whose player is
// missing, the host can let a bot play it now (until the player connects) or, once the seat is away
// (never claimed, or its player gone for a while), give it a new link (the old link stops working)
// — not the host's own seat, and nothing once the game has ended.
// REST: docs/protocol.md, "Host".
import { postJson } from "./session.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";

export function hostTokenFor(tableId) {
  return localStorage.getItem(`parlor.host.${tableId}`) || "";
}

export function rememberHost(tableId, hostToken) {
  if (hostToken) localStorage.setItem(`parlor.host.${tableId}`, hostToken);
}

/** options: {slot, tableId, hostToken, seatName(seat)} */
export function createHost(options) {
  const { slot, tableId, hostToken } = options;
  let seats = [];
  let over = false;
  let you = null; // the seat this browser plays (a new link for it would only lock the host out)
  const links = new Map(); // seat -> the new join path made in this page
  let message = "";
  let userOpened = null; // the host's own open/close of the panel wins over the default

  async function post(seat, what, body) {
    message = "";
    try {
      const res = await postJson(`/api/tables/${encodeURIComponent(tableId)}/seats/${seat}/${what}`, { host_token: hostToken, ...body });
      const answer = await res.json();
      if (!res.ok) throw new Error(answer.error ? answer.error.message : `HTTP ${res.status}`);
      return answer;
    } catch (err) {
      message = t("host.error", { message: err.message });
      draw();
      return null;
    }
  }

  function seatRow(s) {
    const state = s.connected ? t("seat.online") : s.joined ? t("host.left") : t("host.never_joined");
    const row = h(
      "li",
      { class: "host-seat", "data-seat": s.seat },
      h("span", { class: "seat-name" }, options.seatName(s.seat)),
      " ",
      h("small", { class: "muted" }, state),
    );
    if (!over && !s.connected) {
      if (s.stand_in) {
        row.append(h("button", { type: "button", class: "small host-stop-bot", onclick: async () => { await post(s.seat, "stand-in", { on: false }); } }, t("host.stop_bot")));
      } else if (!s.substituted) {
        row.append(h("button", { type: "button", class: "small host-bot", onclick: async () => { await post(s.seat, "stand-in", { on: true }); } }, t("host.bot_now")));
      }
    }
    if (over || s.seat === you) {
      // nothing to replace: the game has ended, or this is the host's own seat
    } else if (s.away === false) {
      // The seat is its player's: a new link only once it is away (docs/protocol.md, "Host").
      row.append(" ", h("small", { class: "muted host-wait" }, t("host.wait_away")));
    } else {
      row.append(
        h(
          "button",
          {
            type: "button",
            class: "small host-new-link",
            onclick: async () => {
              if (!window.confirm(t("host.new_link_confirm", { who: options.seatName(s.seat) }))) return;
              const answer = await post(s.seat, "new-link", {});
              if (answer) {
                links.set(s.seat, answer.join_url || answer.join_path); // (join_url: with the site's --public-url)
                draw();
              }
            },
          },
          t("host.new_link"),
        ),
      );
    }
    const path = links.get(s.seat);
    if (path) {
      const url = new URL(path, location.href).href;
      row.append(h("div", { class: "host-link" }, h("small", {}, t("host.new_link_ready")), " ", h("code", { class: "link-url" }, url)));
    }
    return row;
  }

  function draw() {
    const humans = seats.filter((s) => s.kind === "human");
    if (!hostToken || !humans.length) {
      slot.replaceChildren();
      return;
    }
    const open = userOpened ?? (humans.some((s) => !s.connected) && !over);
    const panel = h(
        "details",
        { class: "host card", id: "host", open },
        h("summary", {}, t("host.title")),
        h("p", { class: "muted" }, t("host.help")),
        h("ul", { class: "host-seats" }, humans.map(seatRow)),
        message ? h("p", { class: "error", role: "alert" }, message) : null,
    );
    panel.addEventListener("toggle", () => (userOpened = panel.open));
    slot.replaceChildren(panel);
  }

  return {
    update(newSeats, isOver) {
      seats = newSeats || [];
      over = Boolean(isOver);
      draw();
    },
    redraw: draw,
    /** The seat this page plays, or null for a spectator. */
    setYou(seat) {
      you = seat === undefined ? null : seat;
    },
  };
}

// The table's chat (docs/protocol.md, "chat" frames): seated players write to the table, which
// everyone reads; spectators write to the spectators' channel, which only spectators read.
// The panel lives outside the table's drawing (#chat-slot), so a redraw of the table never
// loses what someone is typing. Every text goes in as a text node: a message is never markup.
import { h } from "./dom.js";
import { t, tMaybe } from "./i18n.js";
import { reportForm } from "./report.js";

export const MAX_CHAT = 300; // the server's limit (characters), checked there too

/** One chat line: who said it and what (both as plain text); a line a moderator deleted says so.
 * `report(msg)`, when given, adds a "Report" button to the lines it may report (`report.can(msg)`,
 * when set: never one's own line, whose button would do nothing). */
export function chatLine(msg, seatName, report) {
  const spectator = msg.channel === "spectators";
  return h(
    "li",
    { class: `chat-line${spectator ? " chat-spectators" : ""}${msg.deleted ? " chat-deleted" : ""}`, "data-seat": msg.seat, "data-idx": msg.idx, "data-channel": msg.channel || "table" },
    h("span", { class: "chat-who" }, spectator ? t("chat.spectator") : seatName(msg.seat)),
    " ",
    msg.deleted ? h("em", { class: "chat-text muted" }, t("chat.deleted")) : h("span", { class: "chat-text" }, msg.text),
    report && (!report.can || report.can(msg)) && !msg.deleted && !spectator && msg.seat !== null && msg.seat !== undefined
      ? h("button", { type: "button", class: "small link chat-report", title: t("report.title"), onclick: () => report(msg) }, t("report.button"))
      : null,
  );
}

/** The messages as a list (the replay draws the chat of a step with it). */
export function chatList(messages, seatName, id = "chat-lines", report = null) {
  const list = h("ol", { class: "chat-lines", id, "aria-live": "polite" }, messages.map((m) => chatLine(m, seatName, report)));
  if (!messages.length) list.append(h("li", { class: "muted chat-empty" }, t("chat.empty")));
  return list;
}

/**
 * The live chat panel of the table page.
 * options: {slot: element, send(frame) -> bool, seatName(seat), spectator: bool,
 *           older(before) -> Promise<{messages, more}> (the messages said before idx `before`)}
 */
export function createChat(options) {
  const messages = [];
  const spectator = Boolean(options.spectator);
  // Another seat's line can be reported to the moderators (options.tableId: where it was said).
  const reportable = (msg) => options.tableId && msg.seat !== options.mySeat;
  const reportSlot = h("div", { class: "chat-report-slot", id: "chat-report-slot" });
  const report = (msg) => {
    if (!reportable(msg)) return;
    reportSlot.replaceChildren(reportForm({ table_id: options.tableId, chat_idx: msg.idx }, () => reportSlot.replaceChildren()));
  };
  report.can = reportable;
  const draw = () => chatList(messages, options.seatName, "chat-lines", options.tableId ? report : null).children;
  const placeholder = () => t(spectator ? "chat.placeholder_spectators" : "chat.placeholder");
  let refNo = 0;
  const status = h("p", { class: "chat-status muted", id: "chat-status", role: "status" });
  const list = chatList([], options.seatName);
  const input = h("input", {
    type: "text",
    id: "chat-input",
    maxlength: MAX_CHAT,
    autocomplete: "off",
    "aria-label": placeholder(),
    placeholder: placeholder(),
  });
  const button = h("button", { type: "submit", class: "small", id: "chat-send" }, t("chat.send"));
  const form = h("form", { class: "chat-form", id: "chat-form" }, input, button);
  const heading = h("h2", {}, t("chat.title"));
  const note = h("p", { class: "muted chat-note", id: "chat-note", hidden: !spectator }, t("chat.spectators_note"));
  // A table keeps its newest messages for a joining page; older ones are fetched on request.
  let more = false;
  const olderButton = h("button", { type: "button", class: "small link chat-older", id: "chat-older", hidden: true }, t("chat.older"));
  olderButton.addEventListener("click", async () => {
    if (!options.older || !messages.length) return;
    olderButton.disabled = true;
    try {
      const page = await options.older(messages[0].idx);
      for (const m of page.messages) if (!messages.some((x) => x.idx === m.idx)) messages.push(m);
      messages.sort((a, b) => a.idx - b.idx);
      more = page.more && page.messages.length > 0;
      list.replaceChildren(...draw());
    } catch {
      /* offline: the button stays for another try */
    }
    olderButton.disabled = false;
    olderButton.hidden = !more;
  });
  const panel = h("section", { class: "chat card", id: "chat", "aria-label": t("chat.title") }, heading, note, olderButton, list, reportSlot, form, status);

  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    if (text.length > MAX_CHAT) {
      status.textContent = t("chat.too_long", { n: MAX_CHAT });
      return;
    }
    if (options.send({ type: "chat", text, ref: `c${++refNo}` })) {
      input.value = "";
      status.textContent = "";
    }
  });

  function atBottom() {
    return list.scrollHeight - list.scrollTop - list.clientHeight < 24;
  }

  function redrawLabels() {
    heading.textContent = t("chat.title");
    panel.setAttribute("aria-label", t("chat.title"));
    button.textContent = t("chat.send");
    input.placeholder = placeholder();
    input.setAttribute("aria-label", placeholder());
    note.textContent = t("chat.spectators_note");
    olderButton.textContent = t("chat.older");
    list.replaceChildren(...draw());
  }

  options.slot.replaceChildren(panel);

  return {
    /** A `chat` frame: the history on joining (`history: true`), then each new message. */
    onFrame(frame) {
      const stick = atBottom();
      if (frame.history) {
        messages.length = 0;
        more = Boolean(frame.more);
        olderButton.hidden = !more || !options.older;
      }
      for (const m of frame.messages || []) {
        if (messages.some((x) => x.idx === m.idx)) continue;
        messages.push(m);
      }
      messages.sort((a, b) => a.idx - b.idx);
      list.replaceChildren(...draw());
      if (stick || frame.history) list.scrollTop = list.scrollHeight;
    },
    /** An error frame answering one of our chat frames (its ref starts with "c"). */
    onError(frame) {
      status.textContent = tMaybe(`chat.err.${frame.code}`, frame.message || frame.code, frame);
    },
    /** A `chat_deleted` frame: a moderator deleted message `idx` for everyone. */
    onDeleted(idx) {
      const found = messages.find((m) => m.idx === idx);
      if (!found) return;
      found.text = "";
      found.deleted = true;
      list.replaceChildren(...draw());
    },
    /** Names or the language changed. */
    redraw: redrawLabels,
    messages,
  };
}

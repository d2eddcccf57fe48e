// Reporting a player to the site's moderators (docs/protocol.md, "Moderation"): a reason from a short
// list and the reporter's own words, about a player (their page) or one of their chat lines (a table).
import { h } from "./dom.js";
import { t, tMaybe } from "./i18n.js";
import { answerOf, postJson } from "./session.js";

export const REPORT_REASONS = ["cheating", "abuse", "spam", "name", "other"];

/**
 * A report form for `subject` ({player} or {table_id, chat_idx}); `done()` is called when it closes.
 * Its outcome (sent, already reported, sign in first...) is said in the form itself.
 */
export function reportForm(subject, done) {
  const status = h("p", { class: "report-status", id: "report-status", role: "status" });
  const reason = h("select", { id: "report-reason", "aria-label": t("report.reason") },
    REPORT_REASONS.map((r) => h("option", { value: r }, t(`report.reason_${r}`))));
  const text = h("input", { type: "text", id: "report-text", maxlength: 1000, placeholder: t("report.text"), "aria-label": t("report.text") });
  const send = h("button", { type: "submit", class: "small", id: "report-send" }, t("report.send"));
  const cancel = h("button", { type: "button", class: "small link", id: "report-cancel", onclick: () => done(false) }, t("report.cancel"));
  const form = h("form", { class: "report-form card", id: "report-form", "data-keep": "1" }, // (its owner updates it)
    h("strong", {}, t("report.title")), reason, text, send, cancel, status);
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    send.disabled = true;
    try {
      await answerOf(await postJson("/api/reports", { ...subject, reason: reason.value, text: text.value }));
      status.textContent = t("report.sent");
      cancel.textContent = t("report.close");
      form.replaceChildren(status, cancel);
    } catch (err) {
      status.textContent = tMaybe(`report.err.${err.code}`, err.message);
      send.disabled = false;
    }
  });
  return form;
}

// The moderators' page (/admin; the server serves it to moderators only): the players' reports (open
// and resolved; resolved with a note), mutes and bans with a reason and an end, names hidden from the
// leaderboards, a table closed or one of its chat lines deleted, and the log of every moderator's
// action. Every change carries the page's CSRF token (session.js); the server checks each one again.
import { h } from "./dom.js";
import { patch } from "./patch.js";
import { currentLang, languagePicker, loadLang, t, tMaybe } from "./i18n.js";
import { answerOf, postJson } from "./session.js";

const app = document.getElementById("app");
const st = { status: "open", reports: [], sanctions: [], log: [], message: "", error: false };

/** A moment the server sends in UTC (ISO 8601), in the reader's language and local time. */
function when(iso) {
  const at = new Date(iso);
  if (!iso || Number.isNaN(at.getTime())) return iso || "";
  return new Intl.DateTimeFormat(currentLang(), { dateStyle: "medium", timeStyle: "short" }).format(at);
}

async function getJson(path) {
  return answerOf(await fetch(path));
}

async function load() {
  const [reports, sanctions, log] = await Promise.all([
    getJson(`/api/admin/reports?status=${st.status}`),
    getJson("/api/admin/sanctions"),
    getJson("/api/admin/log"),
  ]);
  st.reports = reports.reports;
  st.sanctions = sanctions.sanctions;
  st.log = log.log;
}

/** POST a moderator's action; say what came of it, then read the queues again. */
async function act(path, body, done) {
  try {
    await answerOf(await postJson(path, body));
    st.message = t(done);
    st.error = false;
  } catch (err) {
    st.message = tMaybe(`admin.err.${err.code}`, err.message, err.params);
    st.error = true;
  }
  await load().catch(() => {});
  render();
}

const value = (id) => document.getElementById(id).value;

function field(id, label, input) {
  return h("div", { class: "field" }, h("label", { for: id }, label), input);
}

function reportRow(r) {
  const about = [t(`report.reason_${r.reason}`), r.text].filter(Boolean).join(" — ");
  return h("li", { class: "report-row card", "data-id": r.id, "data-key": `report-${r.id}` },
    h("p", {}, h("strong", {}, t("admin.report_line", { reporter: r.reporter, reported: r.reported })), ` · ${when(r.created_at)}`),
    h("p", { class: "report-about" }, about),
    r.chat_text !== null ? h("blockquote", { class: "report-chat" }, r.chat_text) : null,
    r.table_id ? h("p", { class: "muted" }, t("admin.at_table", { table: r.table_id }), r.chat_idx !== null ? ` · #${r.chat_idx}` : "") : null,
    r.status === "open"
      ? h("form", { class: "report-resolve", onsubmit: (ev) => {
        ev.preventDefault();
        act(`/api/admin/reports/${r.id}/resolve`, { note: value(`note-${r.id}`) }, "admin.resolved");
      } },
      h("input", { id: `note-${r.id}`, type: "text", required: true, placeholder: t("admin.note"), "aria-label": t("admin.note") }),
      h("button", { type: "submit", class: "small", id: `resolve-${r.id}` }, t("admin.resolve")),
      h("button", { type: "button", class: "small link", id: `act-on-${r.id}`, onclick: () => {
        document.getElementById("sanction-name").value = r.reported;
        if (r.table_id) document.getElementById("table-id").value = r.table_id;
        if (r.chat_idx !== null) document.getElementById("chat-idx").value = String(r.chat_idx);
        document.getElementById("sanction-name").focus();
      } }, t("admin.act_on")))
      : h("p", { class: "muted" }, t("admin.resolved_note", { note: r.note || "" })));
}

function sanctionForm() {
  const inAWeek = new Date(Date.now() + 7 * 864e5);
  const local = new Date(inAWeek.getTime() - inAWeek.getTimezoneOffset() * 6e4).toISOString().slice(0, 16);
  return h("form", { class: "card", id: "sanction-form", onsubmit: (ev) => {
    ev.preventDefault();
    const until = new Date(value("sanction-until")); // the reader's local time, sent in UTC
    act("/api/admin/sanctions", { name: value("sanction-name"), kind: value("sanction-kind"), reason: value("sanction-reason"),
      until: Number.isNaN(until.getTime()) ? value("sanction-until") : until.toISOString() }, "admin.sanctioned");
  } },
  h("h2", {}, t("admin.sanction")),
  field("sanction-name", t("admin.name"), h("input", { id: "sanction-name", type: "text", required: true })),
  field("sanction-kind", t("admin.kind"), h("select", { id: "sanction-kind" },
    h("option", { value: "mute" }, t("admin.mute")), h("option", { value: "ban" }, t("admin.ban")))),
  field("sanction-reason", t("admin.reason"), h("input", { id: "sanction-reason", type: "text", required: true })),
  field("sanction-until", t("admin.until"), h("input", { id: "sanction-until", type: "datetime-local", required: true, value: local })),
  h("button", { type: "submit", id: "sanction-send" }, t("admin.apply")));
}

function sanctionRow(s) {
  const id = `lift-${s.kind}-${s.name}`;
  return h("li", { class: "sanction-row", "data-key": id },
    t(s.kind === "ban" ? "admin.banned_until" : "admin.muted_until", { name: s.name, until: when(s.until) }), ` — ${s.reason} `,
    h("input", { id: `${id}-reason`, type: "text", placeholder: t("admin.reason"), "aria-label": t("admin.reason") }),
    h("button", { type: "button", class: "small", onclick: () => act("/api/admin/sanctions/lift",
      { name: s.name, kind: s.kind, reason: value(`${id}-reason`) }, "admin.lifted") }, t("admin.lift")));
}

function tableForm() {
  const reason = () => value("table-reason");
  const tableId = () => encodeURIComponent(value("table-id").trim());
  return h("form", { class: "card", id: "table-form", onsubmit: (ev) => ev.preventDefault() },
    h("h2", {}, t("admin.tables")),
    field("table-id", t("admin.table_id"), h("input", { id: "table-id", type: "text" })),
    field("table-reason", t("admin.reason"), h("input", { id: "table-reason", type: "text" })),
    field("chat-idx", t("admin.chat_idx"), h("input", { id: "chat-idx", type: "number", min: 0 })),
    h("button", { type: "button", id: "delete-chat", onclick: () => act(`/api/tables/${tableId()}/moderate/delete-chat`,
      { idx: Number.parseInt(value("chat-idx"), 10), reason: reason() }, "admin.chat_deleted") }, t("admin.delete_chat")),
    " ",
    h("button", { type: "button", id: "close-table", onclick: () => act(`/api/tables/${tableId()}/moderate/close`,
      { reason: reason() }, "admin.table_closed") }, t("admin.close_table")));
}

function hideForm() {
  const send = (hidden) => act("/api/admin/leaderboards/hide",
    { name: value("hide-name"), hidden, reason: value("hide-reason") }, hidden ? "admin.hidden" : "admin.shown");
  return h("form", { class: "card", id: "hide-form", onsubmit: (ev) => ev.preventDefault() },
    h("h2", {}, t("admin.boards")),
    field("hide-name", t("admin.name"), h("input", { id: "hide-name", type: "text" })),
    field("hide-reason", t("admin.reason"), h("input", { id: "hide-reason", type: "text" })),
    h("button", { type: "button", id: "hide-send", onclick: () => send(true) }, t("admin.hide")), " ",
    h("button", { type: "button", id: "show-send", onclick: () => send(false) }, t("admin.show")));
}

function render() {
  document.title = `Parlor — ${t("admin.title")}`;
  const tab = (status) => h("button", { type: "button", class: `small${st.status === status ? "" : " link"}`, id: `reports-${status}`,
    "aria-pressed": String(st.status === status),
    onclick: async () => { st.status = status; await load().catch(() => {}); render(); } }, t(`admin.reports_${status}`));
  patch(app, [
    h("h1", {}, t("admin.title")),
    h("p", {}, h("a", { href: "/" }, t("account.to_lobby"))),
    h("p", { class: st.error ? "error" : "muted", id: "admin-status", role: "status" }, st.message),
    h("h2", {}, t("admin.reports")),
    h("p", {}, tab("open"), " ", tab("resolved")),
    st.reports.length
      ? h("ul", { class: "reports", id: "reports" }, st.reports.map(reportRow))
      : h("p", { class: "muted", id: "reports-empty" }, t("admin.no_reports")),
    sanctionForm(),
    h("h2", {}, t("admin.sanctions")),
    st.sanctions.length
      ? h("ul", { class: "sanctions", id: "sanctions" }, st.sanctions.map(sanctionRow))
      : h("p", { class: "muted", id: "sanctions-empty" }, t("admin.no_sanctions")),
    tableForm(),
    hideForm(),
    h("h2", {}, t("admin.log")),
    h("ol", { class: "admin-log", id: "admin-log" }, st.log.map((line) => h("li", { class: "log-line" },
      `${when(line.at)} · ${line.admin || t("admin.command_line")} · ${tMaybe(`admin.action.${line.action}`, line.action)} · ${line.target} — ${line.reason}`))),
  ]);
}

async function main() {
  await loadLang();
  document.getElementById("lang-slot").replaceChildren(languagePicker(() => render()));
  try {
    await load();
  } catch (err) {
    st.message = err.message;
    st.error = true;
  }
  render();
}

main().catch((err) => {
  app.textContent = String(err);
});

// The signed-in player (or null) and the CSRF token every change this page asks for carries
// (docs/protocol.md, "Accounts"): a request with the session cookie and without the token is refused.
let known = null;

/** {account: {name} | null, csrf}: asked once per page, again after signing in or out. */
export async function session(refresh = false) {
  if (!known || refresh) {
    try {
      const res = await fetch("/api/account");
      known = res.ok ? await res.json() : { account: null, csrf: "" };
    } catch {
      known = { account: null, csrf: "" };
    }
  }
  return known;
}

/** What a sign-in, sign-up or sign-out answered: the page's new session and token. */
export function remember(answer) {
  known = { account: answer.account, csrf: answer.csrf };
}

/** POST a JSON body with the page's CSRF token. */
export async function postJson(path, body) {
  const { csrf } = await session();
  return fetch(path, {
    method: "POST",
    headers: { "content-type": "application/json", "x-csrf-token": csrf },
    body: JSON.stringify(body || {}),
  });
}

/** The answer's JSON, or an Error with the server's message (or the HTTP status). */
export async function answerOf(res) {
  let body = null;
  try {
    body = await res.json();
  } catch {
    body = null;
  }
  if (!res.ok || !body) {
    const err = new Error(body && body.error ? body.error.message : `HTTP ${res.status}`);
    err.code = body && body.error ? body.error.code : null;
    err.field = body && body.error ? body.error.field : null;
    err.params = body && body.error ? body.error : {}; // e.g. a ban's {until, reason}, for the reader's language
    throw err;
  }
  return body;
}

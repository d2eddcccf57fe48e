"""The WebSocket per connection (docs/protocol.md, "Frames"): the handshake (the seat's token, or the
session's own seat, or a public table's spectators), the edge's limits on it (frame size and rate,
connections per address and per table, syncs per table and per address), and each frame parsed and
handed to the table layer as one change."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from parlor.server.limits import Limits, RateLimiter
from parlor.server.metrics import SiteMetrics
from parlor.server.moderation import Moderation
from parlor.server.review import ReviewService
from parlor.server.table import Connection, Decide, Hub, LiveTable, PlayAgain, Say, Undo, authenticate
from parlor.server.table.changes import seat_of_account
from parlor.server.table.live import FinishedTable
from parlor.server.wire import ServerError, dumps, loads

from .common import PROTOCOL, account_of, hub_of

CLIENT_TYPES = ("action", "undo", "play_again", "chat", "sync", "ping", "hint")
FLOOD_REFUSALS, FLOOD_WINDOW = 30, 10.0  # chat lines refused for their rate within the window (seconds)
log = logging.getLogger("parlor.server")


def socket_router(caps: Limits, *, max_frame_bytes: int, rate_per_second: float, burst: int) -> APIRouter:
    """The WebSocket route, with its own counters (connections per address, syncs per table and per
    address) for the one app it is included in."""
    router = APIRouter()
    frame_limits = {"max_frame_bytes": max_frame_bytes, "rate_per_second": rate_per_second, "burst": burst}
    syncs_per_table = RateLimiter(caps.syncs_per_table_per_second, caps.syncs_per_table_per_second * 2)
    syncs_per_address = RateLimiter(caps.syncs_per_address_per_second, caps.syncs_per_address_per_second * 2)
    sockets_per_address: dict[str, int] = {}

    @router.websocket("/ws/tables/{table_id}")
    async def table_socket(ws: WebSocket, table_id: str) -> None:
        hub = hub_of(ws)
        await ws.accept()
        token = ws.query_params.get("token", "")
        address = ws.client.host if ws.client is not None else "?"
        try:
            if sockets_per_address.get(address, 0) >= caps.max_connections_per_address:
                raise ServerError(
                    "too_many_connections",
                    f"at most {caps.max_connections_per_address} connections from one address",
                    429,
                )
            head = await hub.peek(table_id)
            account_id = None
            signed_in = await account_of(ws)
            if token == "":  # a signed-in player's own seat (any device), or a public table's spectator
                seat, account_id = seat_without_token(head, signed_in)
            else:
                seat = authenticate(head, token)  # a finished table is replayed only for a right token
            if seat is not None and head.status == "playing":  # a banned account's seat stays its bot's
                banned = await ws.app.state.moderation.refusal([head.seats[seat].account_id], "ban")
                if banned is not None:
                    raise banned
            table = await hub.live(head)
            if len(table.connections) >= caps.max_connections_per_table:
                raise ServerError(
                    "too_many_connections", f"at most {caps.max_connections_per_table} connections to one table", 429
                )
        except ServerError as exc:
            close = {"table_not_found": 4404, "bad_token": 4403, "seat_replaced": 4403, "banned": 4403}
            close["too_many_connections"] = 4429
            with contextlib.suppress(Exception):
                await ws.send_text(dumps({"type": "error", **exc.to_json()}))
                await ws.close(code=close.get(exc.code, 4409))
            return
        sockets_per_address[address] = sockets_per_address.get(address, 0) + 1
        try:
            await serve_socket(hub, ws, table, seat, address, account_id, signed_in)
        finally:
            sockets_per_address[address] -= 1
            if sockets_per_address[address] <= 0:
                del sockets_per_address[address]

    def seat_without_token(
        table: LiveTable | FinishedTable, account: dict[str, Any] | None
    ) -> tuple[int | None, str | None]:
        """The seat the session's account holds here and that account (None, None: watching a public
        table, as its spectator link would)."""
        seat = seat_of_account(table, account["id"]) if account is not None else None
        if seat is None and not table.public:
            raise ServerError("bad_token", "your account holds no seat at this table (sign in, or open your link)", 403)
        return seat, account["id"] if seat is not None and account is not None else None

    async def serve_socket(
        hub: Hub,
        ws: WebSocket,
        table: LiveTable,
        seat: int | None,
        address: str,
        account_id: str | None = None,
        signed_in: dict[str, Any] | None = None,
    ) -> None:
        welcome = {
            "type": "welcome",
            "protocol": PROTOCOL,
            "role": "spectator" if seat is None else "seat",
            "seat": seat,
            "limits": frame_limits,
        }
        try:
            conn = await hub.connect(
                table,
                seat,
                ws.send_text,
                lambda code, reason: ws.close(code=code, reason=reason),
                address,
                welcome,
                account_id,
            )
        except ServerError as exc:
            with contextlib.suppress(Exception):
                await ws.send_text(dumps({"type": "error", "code": exc.code, "message": exc.message}))
                await ws.close(code=1012 if exc.code == "unavailable" else 4409)
            return
        conn.signed_in_id = signed_in["id"] if signed_in is not None else None
        loop = asyncio.get_running_loop()
        writer = loop.create_task(conn.writer())
        bucket = _Bucket(rate_per_second, burst)
        heard = loop.time()
        closing: list[asyncio.Task[None]] = []

        def watch() -> None:
            """Silent for too long (not even the browser's keep-alive ping): closed, and its seat freed.
            One timer per connection, moved on only when it fires (cheaper than a timeout per frame)."""
            silent = loop.time() - heard
            if conn.closed:
                return
            if silent >= caps.idle_timeout:
                closing.append(loop.create_task(ws.close(code=4008, reason="idle for too long")))
                return
            watchdog[0] = loop.call_later(caps.idle_timeout - silent, watch)

        watchdog = [loop.call_later(caps.idle_timeout, watch)]
        try:
            while not conn.closed:
                message = await ws.receive()
                heard = loop.time()
                received = time.perf_counter()
                if message["type"] == "websocket.disconnect":
                    break
                text = message.get("text")
                if text is None:
                    data = message.get("bytes") or b""
                    size = len(data)
                else:
                    size = len(text.encode("utf-8", "surrogatepass")) if len(text) * 4 > max_frame_bytes else len(text)
                limited = not bucket.take()
                if size > max_frame_bytes:
                    conn.push(_error("too_large", f"frames are limited to {max_frame_bytes} bytes, got {size}"))
                    continue
                if text is None:
                    try:
                        text = data.decode("utf-8")
                    except UnicodeDecodeError:
                        conn.push(_error("bad_json", "binary frames must be UTF-8 JSON"))
                        continue
                await handle(
                    conn, text, limited, ws.app.state.reviews, ws.app.state.moderation, ws.app.state.metrics, received
                )
        except WebSocketDisconnect:
            pass
        except Exception:  # a broken socket must never take the table down
            log.exception("connection to table %s failed", table.id)
        finally:
            watchdog[0].cancel()
            await hub.disconnect(conn)
            if not conn.close_code:
                writer.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await writer

    def refuse_chat(conn: Connection, frame: str) -> None:
        """A chat line refused for its rate. A connection that goes on regardless (more than
        ``FLOOD_REFUSALS`` refusals within ``FLOOD_WINDOW`` seconds) is closed (4008): a chat flood
        costs the server the work of refusing it, which other tables would pay for."""
        now = time.monotonic()
        if now - conn.refused_since > FLOOD_WINDOW:
            conn.refused_since, conn.refused = now, 0
        conn.refused += 1
        if conn.refused > FLOOD_REFUSALS:
            conn.close_with(4008, "too many frames refused for their rate")
            return
        conn.push(frame)

    async def handle(
        conn: Connection,
        text: str,
        limited: bool,
        reviews: ReviewService,
        moderation: Moderation,
        metrics: SiteMetrics,
        received: float,
    ) -> None:
        try:
            msg = loads(text)
        except ServerError as exc:
            conn.push(_error(exc.code, exc.message))
            return
        if not isinstance(msg, dict):
            conn.push(_error("bad_frame", "a frame must be a JSON object with a 'type'"))
            return
        ref = msg.get("ref")
        if ref is not None and not (
            (isinstance(ref, str) and len(ref) <= 64) or (type(ref) is int and abs(ref) < 1 << 53)
        ):
            conn.push(_error("bad_frame", "'ref' must be a string of at most 64 characters or an integer"))
            return
        if limited:
            conn.push(_error("rate_limited", f"slow down: at most {rate_per_second:g} frames a second", ref))
            return
        kind = msg.get("type")
        if not isinstance(kind, str):
            conn.push(_error("bad_frame", "a frame needs a string 'type'", ref))
            return
        if kind not in CLIENT_TYPES:
            conn.push(
                _error("unknown_type", f"unknown frame type {kind[:40]!r}; known: {', '.join(CLIENT_TYPES)}", ref)
            )
            return
        table = conn.table
        try:
            if kind == "ping":
                conn.push(dumps({"type": "pong", "ref": ref}))
            elif kind == "sync":
                # Served from the table's cache; still throttled per table and per address, so that many
                # connections together cannot keep the loop busy.
                if not syncs_per_table.take(table.id) or not syncs_per_address.take(conn.address):
                    raise ServerError(
                        "rate_limited", "too many syncs on this table or from this address; wait a moment"
                    )
                if table.gone:
                    raise ServerError("unavailable", "this table moved to another server process; reconnect", 503)
                conn.push(table.frames.full_frame(conn, "sync"))
            elif kind == "action":
                await table.change(Decide.from_frame(table, conn, msg, ref))  # the ack goes out with the state
                metrics.decided(time.perf_counter() - received)  # (the ack and state are queued by now)
            elif kind == "undo":
                await table.change(Undo(conn.seat, (conn, ref)))
            elif kind == "chat":
                # A muted account writes nothing: the seat's account, or the session's (a spectator too).
                seat_account = table.seats[conn.seat].account_id if conn.seat is not None else None
                muted = await moderation.refusal([seat_account, conn.account_id, conn.signed_in_id], "mute")
                if muted is not None:
                    raise muted
                say = Say.from_frame(table, conn, msg.get("text"), ref)  # limits first, outside the lock
                await table.change(say)  # its ack, then the chat frame to everyone
            elif kind == "hint":  # answered by a "hint" frame once the judge is done (server/review/)
                reviews.ask_hint(conn, ref)
            elif kind == "play_again":
                if conn.seat is None:
                    raise ServerError("spectator", "spectators cannot start a new game")
                await table.change(PlayAgain(conn.seat, conn.address, ack=(conn, ref)))
        except ServerError as exc:
            if exc.code == "rate_limited" and kind == "chat":
                refuse_chat(conn, _error(exc.code, exc.message, ref, exc.field))
            else:
                conn.push(_error(exc.code, exc.message, ref, exc.field, exc.extra))
        except Exception as exc:  # never let one frame take the connection (or the table) down
            log.exception("frame %r failed", kind)
            conn.push(_error("server_error", f"the server failed on this frame ({type(exc).__name__})", ref))

    return router


class _Bucket:
    """A token bucket: ``burst`` frames at once, ``rate`` a second sustained."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.capacity = float(burst)
        self.tokens = float(burst)
        self.stamp = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.capacity, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


def _error(
    code: str, message: str, ref: Any = None, field: str | None = None, extra: dict[str, Any] | None = None
) -> str:
    out: dict[str, Any] = {"type": "error", "code": code, "message": message, **(extra or {})}
    if field is not None:
        out["field"] = field
    if ref is not None:
        out["ref"] = ref
    return dumps(out)

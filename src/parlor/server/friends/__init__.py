"""Friends and blocking: following players, seeing who of them is online and where they sit, inviting
them to a seat, and blocking a player (docs/protocol.md, "Friends").

A feature beside ``table/`` (docs/server.md): its routes are ``edge/friends.py``; it stores through
``storage.FriendStore`` (no table's rows: not fenced); it sits a player down through the table's own
``SitDown`` change; and it tells the tables whose chat to hide through two narrow hooks the hub
offers (``Hub.chat_hidden``, ``Hub.arrival_hooks``), never by ``table/`` importing it.

Whose chat a connection is not sent: the lines of the seats whose account the connection's own
account blocks. The tables ask :meth:`Friends.hides` with no wait (a chat line goes out under the
table's lock), so this process keeps each seated account's blocks in memory: loaded before its
connection's first frames (``arrival_hooks``), changed at once by a block or unblock made here, and
read again every ``REFRESH`` seconds (a block made on another process of the site takes effect here
by then); an account gone from this process's tables for ``IDLE`` seconds is forgotten.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Any

from parlor import games as registry
from parlor.server.accounts import fold_name
from parlor.server.storage import FriendStore, Refused
from parlor.server.table import Hub, SitDown
from parlor.server.wire import ServerError

log = logging.getLogger("parlor.server")

REFRESH = 10.0  # seconds between reloads of the blocks this process keeps for the tables' chat
IDLE = 600.0  # seconds an account's blocks are kept here after its last connection
MAX_NAME_INPUT = 64

# What each refusal says (the code, its words, the HTTP status). ``not_sent`` is said alike whatever
# kept the invitation from being sent, so that it never tells the inviter they are blocked.
REFUSALS: dict[str, tuple[str, int]] = {
    "blocking": ("you block this player: unblock them first", 409),
    "already_following": ("you follow this player already", 409),
    "not_following": ("you do not follow this player", 409),
    "already_blocked": ("you block this player already", 409),
    "not_blocked": ("you do not block this player", 409),
    "table_not_found": ("no such table", 404),
    "game_over": ("this table's game is over", 409),
    "table_full": ("this table no longer waits for players: its seats are taken and its game has begun", 409),
    "not_seated": ("you can invite only to a table where you hold a seat", 403),
    "already_seated": ("this player sits at this table already", 409),
    "not_sent": ("the invitation could not be sent", 409),
    "already_invited": ("you invited this player to this table already", 409),
    "no_invitation": ("no such invitation (it may have been declined or withdrawn)", 404),
    "invitation_expired": ("this invitation has expired: the table no longer waits for players", 409),
}


def refused(exc: Refused) -> ServerError:
    message, status = REFUSALS[exc.code]
    return ServerError(exc.code, message, status)


class Friends:
    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.store = FriendStore(hub.db)
        # For the tables' chat: the blocks of the accounts seated here, when each was last used, and a
        # count of the blocks and unblocks made here (a reload never undoes one made while it read).
        self._blocks: dict[str, frozenset[str]] = {}
        self._used: dict[str, float] = {}
        self._edits: dict[str, int] = {}
        # Told of each invitation sent (the invitee's account id, the table, the inviter's name, the
        # game's title): the notifications (server/notify) register here.
        self.invited_hooks: list[Callable[[str, str, str, str], None]] = []
        hub.chat_hidden = self.hides
        hub.arrival_hooks.append(self.keep_blocks_of)

    # ---- who is who -------------------------------------------------------------------------------
    async def _other(self, me: dict[str, Any], name: Any) -> str:
        """The account id of the player named ``name`` (not ``me``); else a clear refusal."""
        if not isinstance(name, str) or not name.strip():
            raise ServerError("bad_request", "'name' must be a player's name", field="name")
        key = fold_name(" ".join(name.split()))[:MAX_NAME_INPUT]
        other = await self.hub.run_db(self.store.account_id, key)
        if other is None:
            raise ServerError("unknown_player", f"no player is called {name.strip()[:40]!r}", 404, field="name")
        if other == me["id"]:
            raise ServerError("yourself", "that is you: pick another player", 400, field="name")
        return other

    async def _do(self, fn: Any, *args: Any) -> Any:
        try:
            return await self.hub.run_db(fn, *args)
        except Refused as exc:
            raise refused(exc) from None

    # ---- follows and blocks ---------------------------------------------------------------------
    async def follow(self, me: dict[str, Any], name: Any) -> dict[str, Any]:
        other = await self._other(me, name)
        await self._do(self.store.follow, me["id"], other)
        return {"following": True}

    async def unfollow(self, me: dict[str, Any], name: Any) -> dict[str, Any]:
        other = await self._other(me, name)
        await self._do(self.store.unfollow, me["id"], other)
        return {"following": False}

    async def block(self, me: dict[str, Any], name: Any) -> dict[str, Any]:
        other = await self._other(me, name)
        await self._do(self.store.block, me["id"], other)
        if me["id"] in self._blocks:
            self._changed(me["id"], self._blocks[me["id"]] | {other})
        return {"blocking": True, "following": False}

    async def unblock(self, me: dict[str, Any], name: Any) -> dict[str, Any]:
        other = await self._other(me, name)
        await self._do(self.store.unblock, me["id"], other)
        if me["id"] in self._blocks:
            self._changed(me["id"], self._blocks[me["id"]] - {other})
        return {"blocking": False}

    async def relation(self, me: dict[str, Any], name: Any) -> dict[str, Any]:
        """What ``me`` does about a player (their page's buttons); a player's page open counts as being
        on the site, as the lobby does (online to one's followers)."""
        other = await self._other(me, name)
        await self.hub.run_db(self.store.seen, me["id"])
        return dict(await self.hub.run_db(self.store.relation, me["id"], other))

    async def panel(self, me: dict[str, Any]) -> dict[str, Any]:
        """The friends panel; asking for it counts as being in the lobby (online to one's followers)."""
        await self.hub.run_db(self.store.seen, me["id"])
        return dict(await self.hub.run_db(self.store.panel, me["id"]))

    # ---- invitations ----------------------------------------------------------------------------
    async def invite(self, me: dict[str, Any], table_id: Any, name: Any) -> dict[str, Any]:
        if not isinstance(table_id, str) or not 0 < len(table_id) <= 32:
            raise ServerError("bad_request", "'table_id' must be a table's id", field="table_id")
        other = await self._other(me, name)
        invitation = await self._do(self.store.invite, me["id"], table_id, other)
        if self.invited_hooks:
            head = await self.hub.run_db(self.hub.db.load_head, table_id)
            title = registry.get(head["game"]).title if head is not None else "?"
            for hook in self.invited_hooks:
                hook(other, table_id, me["name"], title)
        return {"invitation": invitation}

    async def accept(
        self, me: dict[str, Any], table_id: str, invitation_id: str, address: str | None
    ) -> dict[str, Any]:
        """The invited player takes an open seat of the table (``SitDown``, as from the lobby, even at a
        private table: the inviter holds a seat there); the invitation is then gone. One that has
        lapsed (the table started or filled) is refused and gone too."""
        found = await self._do(self.store.invitation, me["id"], invitation_id[:64])
        if found["table_id"] != table_id:
            raise refused(Refused("no_invitation"))
        if not found["waiting"]:
            await self.hub.run_db(self.store.drop_invitation, me["id"], found["id"])
            raise refused(Refused("invitation_expired"))
        try:
            table = await self.hub.get(found["table_id"])
        except ServerError as exc:
            if exc.code != "table_not_found":
                raise
            await self.hub.run_db(self.store.drop_invitation, me["id"], found["id"])
            raise refused(Refused("invitation_expired")) from None
        try:
            seated = await table.change(SitDown(None, me, None, address, invited=True))
        except ServerError as exc:
            if exc.code in ("seat_taken", "game_over", "not_open"):
                await self.hub.run_db(self.store.drop_invitation, me["id"], found["id"])
                raise refused(Refused("invitation_expired")) from None
            raise
        finally:
            self.hub.release(table)
        await self.hub.run_db(self.store.drop_invitation, me["id"], found["id"])
        return dict(seated)

    async def decline(self, me: dict[str, Any], invitation_id: str) -> dict[str, Any]:
        if not await self.hub.run_db(self.store.drop_invitation, me["id"], invitation_id[:64]):
            raise refused(Refused("no_invitation"))
        return {"declined": True}

    # ---- the tables' chat -------------------------------------------------------------------------
    def hides(self, viewer: str, speaker: str) -> bool:
        """Whether a chat line of ``speaker``'s seat is kept from ``viewer``'s connections (no wait)."""
        return speaker in self._blocks.get(viewer, ())

    def _changed(self, account_id: str, blocks: frozenset[str]) -> None:
        """A block or unblock made here: this process's copy follows at once."""
        self._blocks[account_id] = blocks
        self._edits[account_id] = self._edits.get(account_id, 0) + 1

    async def keep_blocks_of(self, account_id: str) -> None:
        """A seat of ``account_id`` opens a connection here: its blocks are known before its first frames."""
        self._used[account_id] = time.monotonic()
        if account_id not in self._blocks:
            loaded = await self.hub.run_db(self.store.blocked_by, [account_id])
            self._blocks.setdefault(account_id, loaded[account_id])

    async def refresh_forever(self) -> None:
        """Every ``REFRESH`` seconds: read again the blocks of the accounts kept (a block made on another
        process)."""
        while True:
            await asyncio.sleep(REFRESH)
            try:
                await self.refresh()
            except Exception as exc:  # the database away a moment: the blocks kept stay as they were
                log.warning("could not read the players' blocks again: %s", exc)

    async def refresh(self) -> None:
        """Read again the blocks of the accounts kept. An account no connection here has used for
        ``IDLE`` seconds is forgotten (read again when it next arrives); one used lately is kept even
        while it has no connection, so that one arriving while this runs is never left without its
        blocks."""
        stamp = time.monotonic()
        for account in self.hub.connected_accounts():
            self._used[account] = stamp
        for account in [a for a, used in self._used.items() if stamp - used > IDLE]:
            del self._used[account]
            self._blocks.pop(account, None)
            self._edits.pop(account, None)
        kept = sorted(self._blocks)
        edits = dict(self._edits)
        loaded = await self.hub.run_db(self.store.blocked_by, kept)
        for account, blocks in loaded.items():
            # (not over a block made here while the rows were read, nor for an account forgotten since)
            if account in self._blocks and self._edits.get(account) == edits.get(account):
                self._blocks[account] = blocks

"""Friends and blocking: follows, blocks, invitations and presence (``server/friends``).

None of these is a table's row, so none goes through ``Database.commit`` and its fence (as with
accounts: ``storage/accounts.py``). Each call is one short transaction in the server's database
threads. Uniqueness (following twice, blocking twice, inviting one player twice to one table) is
the database's: a primary key or a unique index, so requests that race cannot both win.

What may be refused is raised as :class:`Refused` with a code; the service (``server/friends``) says
it in words.
"""

from __future__ import annotations

import secrets
from datetime import timedelta
from typing import Any

from sqlalchemy import and_, delete, exists, insert, or_, select, update
from sqlalchemy.exc import IntegrityError

from .database import Database, _utc, now
from .listings import _COLUMNS, _entries, _open_seat
from .schema import accounts_t, blocks_t, follows_t, invitations_t, presence_t, seats_t, tables_t

ONLINE_WITHIN = timedelta(seconds=90)  # seen in the lobby this recently: online
PRESENCE_EVERY = timedelta(seconds=30)  # a player's presence is written at most this often


class Refused(Exception):
    """A request that changes nothing: ``code`` says why (the service words it)."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


def _blocks(blocker: Any, blocked: Any) -> Any:
    """SQL: ``blocker`` blocks ``blocked`` (accounts' ids or columns)."""
    return exists().where(blocks_t.c.blocker_id == blocker, blocks_t.c.blocked_id == blocked)


def _waiting(table: Any = tables_t) -> Any:
    """SQL: the table still waits for players (its game not over, a human seat nobody holds)."""
    return and_(table.c.status == "playing", _open_seat(table).correlate(table))


class FriendStore:
    def __init__(self, db: Database) -> None:
        self.db = db

    def account_id(self, name_key: str) -> str | None:
        """The living account of this folded name, or None."""
        with self.db.engine.connect() as conn:
            return conn.execute(
                select(accounts_t.c.id).where(accounts_t.c.name_key == name_key, accounts_t.c.deleted_at.is_(None))
            ).scalar()

    # ---- follows and blocks ----------------------------------------------------------------------
    def follow(self, me: str, other: str) -> None:
        """``me`` follows ``other``; :class:`Refused` ``blocking`` (me blocks them) or ``already_following``."""
        try:
            with self.db.engine.begin() as conn:
                if conn.execute(select(_blocks(me, other))).scalar():
                    raise Refused("blocking")
                conn.execute(insert(follows_t).values(follower_id=me, followed_id=other, created_at=now()))
        except IntegrityError:
            raise Refused("already_following") from None

    def unfollow(self, me: str, other: str) -> None:
        with self.db.engine.begin() as conn:
            gone = conn.execute(
                delete(follows_t).where(follows_t.c.follower_id == me, follows_t.c.followed_id == other)
            ).rowcount
        if not gone:
            raise Refused("not_following")

    def block(self, me: str, other: str) -> None:
        """``me`` blocks ``other``: ``me`` stops following them, and the invitations between the two (either
        way) are withdrawn, in the same transaction. :class:`Refused` ``already_blocked``."""
        try:
            with self.db.engine.begin() as conn:
                conn.execute(insert(blocks_t).values(blocker_id=me, blocked_id=other, created_at=now()))
                conn.execute(delete(follows_t).where(follows_t.c.follower_id == me, follows_t.c.followed_id == other))
                conn.execute(
                    delete(invitations_t).where(
                        or_(
                            and_(invitations_t.c.inviter_id == me, invitations_t.c.invitee_id == other),
                            and_(invitations_t.c.inviter_id == other, invitations_t.c.invitee_id == me),
                        )
                    )
                )
        except IntegrityError:
            raise Refused("already_blocked") from None

    def unblock(self, me: str, other: str) -> None:
        with self.db.engine.begin() as conn:
            gone = conn.execute(
                delete(blocks_t).where(blocks_t.c.blocker_id == me, blocks_t.c.blocked_id == other)
            ).rowcount
        if not gone:
            raise Refused("not_blocked")

    def relation(self, me: str, other: str) -> dict[str, bool]:
        """What ``me`` does about ``other``: follows, blocks (never whether ``other`` blocks ``me``)."""
        with self.db.engine.connect() as conn:
            following = conn.execute(
                select(exists().where(follows_t.c.follower_id == me, follows_t.c.followed_id == other))
            ).scalar()
            blocking = conn.execute(select(_blocks(me, other))).scalar()
        return {"following": bool(following), "blocking": bool(blocking)}

    def blocked_by(self, accounts: list[str]) -> dict[str, frozenset[str]]:
        """For each of ``accounts``, the accounts it blocks (for the tables' chat)."""
        found: dict[str, set[str]] = {a: set() for a in accounts}
        if accounts:
            with self.db.engine.connect() as conn:
                rows = conn.execute(
                    select(blocks_t.c.blocker_id, blocks_t.c.blocked_id).where(blocks_t.c.blocker_id.in_(accounts))
                )
                for blocker, blocked in rows:
                    found[blocker].add(blocked)
        return {a: frozenset(b) for a, b in found.items()}

    # ---- presence --------------------------------------------------------------------------------
    def seen(self, me: str) -> None:
        """``me`` has the lobby (or the account page) open now: one write per ``PRESENCE_EVERY`` at most."""
        stamp = now()
        with self.db.engine.begin() as conn:
            moved = conn.execute(
                update(presence_t)
                .where(presence_t.c.account_id == me, presence_t.c.seen_at < stamp - PRESENCE_EVERY)
                .values(seen_at=stamp)
            ).rowcount
            if moved or conn.execute(select(presence_t.c.account_id).where(presence_t.c.account_id == me)).first():
                return
        try:
            with self.db.engine.begin() as conn:
                conn.execute(insert(presence_t).values(account_id=me, seen_at=stamp))
        except IntegrityError:
            pass  # another request of the same player wrote it first: as good

    # ---- the panel -------------------------------------------------------------------------------
    def panel(self, me: str) -> dict[str, Any]:
        """What ``me``'s friends panel shows: the players ``me`` follows (each online or not, and the public
        tables waiting for players where they sit), the players ``me`` blocks, and the invitations to
        ``me`` that still hold. A followed player who blocks ``me`` is shown offline, with no tables: the
        panel does not tell a block from an absence."""
        stamp = now()
        with self.db.engine.connect() as conn:
            followed = conn.execute(
                select(accounts_t.c.id, accounts_t.c.name, presence_t.c.seen_at, _blocks(accounts_t.c.id, me))
                .select_from(
                    follows_t.join(accounts_t, accounts_t.c.id == follows_t.c.followed_id).outerjoin(
                        presence_t, presence_t.c.account_id == accounts_t.c.id
                    )
                )
                .where(follows_t.c.follower_id == me, accounts_t.c.deleted_at.is_(None))
                .order_by(accounts_t.c.name_key)
            ).all()
            visible = [r.id for r in followed if not r[3]]
            tables_by: dict[str, list[dict[str, Any]]] = {i: [] for i in visible}
            if visible:
                rows = conn.execute(
                    select(*_COLUMNS, seats_t.c.account_id.label("sitter"))
                    .join(seats_t, seats_t.c.table_id == tables_t.c.id)
                    .where(seats_t.c.account_id.in_(visible), tables_t.c.visibility == "public", _waiting())
                    .order_by(tables_t.c.created_at.desc())
                    .limit(200)
                ).all()
                for entry, row in zip(_entries(conn, rows), rows, strict=True):
                    tables_by[row.sitter].append(entry)
            following = []
            for r in followed:
                hidden = bool(r[3])
                online = not hidden and r.seen_at is not None and stamp - _utc(r.seen_at) <= ONLINE_WITHIN
                following.append({"name": r.name, "online": online, "tables": [] if hidden else tables_by[r.id]})
            blocked = conn.execute(
                select(accounts_t.c.name)
                .join(blocks_t, blocks_t.c.blocked_id == accounts_t.c.id)
                .where(blocks_t.c.blocker_id == me, accounts_t.c.deleted_at.is_(None))
                .order_by(accounts_t.c.name_key)
            ).scalars()
            blocked_names = list(blocked)
            inviter = accounts_t.alias("inviter")
            invitations = conn.execute(
                select(
                    invitations_t.c.id,
                    invitations_t.c.table_id,
                    invitations_t.c.created_at,
                    inviter.c.name.label("inviter"),
                    tables_t.c.game,
                    tables_t.c.players,
                )
                .join(tables_t, tables_t.c.id == invitations_t.c.table_id)
                .join(inviter, inviter.c.id == invitations_t.c.inviter_id)
                .where(invitations_t.c.invitee_id == me, inviter.c.deleted_at.is_(None), _waiting())
                .order_by(invitations_t.c.created_at.desc())
            ).all()
        return {
            "following": following,
            "blocked": blocked_names,
            "invitations": [
                {
                    "id": i.id,
                    "table_id": i.table_id,
                    "from": i.inviter,
                    "game": i.game,
                    "players": i.players,
                    "created_at": _utc(i.created_at),
                }
                for i in invitations
            ],
        }

    # ---- invitations -----------------------------------------------------------------------------
    def invite(self, me: str, table_id: str, other: str) -> str:
        """An invitation from ``me`` to ``other`` to sit at ``table_id``, where ``me`` holds a seat; its id.
        :class:`Refused`: ``table_not_found``, ``game_over``, ``table_full`` (no open seat: the game is on),
        ``not_seated`` (me holds no seat there), ``not_following``, ``already_seated`` (they hold one),
        ``not_sent`` (they block me: not said as such), ``already_invited``."""
        invitation = secrets.token_hex(8)
        try:
            with self.db.engine.begin() as conn:
                status = conn.execute(select(tables_t.c.status).where(tables_t.c.id == table_id)).scalar()
                if status is None:
                    raise Refused("table_not_found")
                if status != "playing":
                    raise Refused("game_over")

                def holds(account: str) -> bool:
                    seat = select(seats_t.c.seat).where(seats_t.c.table_id == table_id, seats_t.c.account_id == account)
                    return conn.execute(seat).first() is not None

                if not holds(me):
                    raise Refused("not_seated")
                if not conn.execute(select(_open_seat()).where(tables_t.c.id == table_id)).scalar():
                    raise Refused("table_full")
                follows = exists().where(follows_t.c.follower_id == me, follows_t.c.followed_id == other)
                if not conn.execute(select(follows)).scalar():
                    raise Refused("not_following")
                if holds(other):
                    raise Refused("already_seated")
                if conn.execute(select(_blocks(other, me))).scalar():
                    raise Refused("not_sent")
                conn.execute(
                    insert(invitations_t).values(
                        id=invitation, table_id=table_id, inviter_id=me, invitee_id=other, created_at=now()
                    )
                )
        except IntegrityError:
            raise Refused("already_invited") from None
        return invitation

    def invitation(self, me: str, invitation_id: str) -> dict[str, Any]:
        """``me``'s invitation (``id``, ``table_id``, ``inviter_id``, ``waiting``: the table still waits for
        players). :class:`Refused` ``no_invitation`` (unknown, another's, or declined)."""
        with self.db.engine.connect() as conn:
            row = conn.execute(
                select(invitations_t.c.id, invitations_t.c.table_id, invitations_t.c.inviter_id, _waiting())
                .join(tables_t, tables_t.c.id == invitations_t.c.table_id)
                .where(invitations_t.c.id == invitation_id, invitations_t.c.invitee_id == me)
            ).first()
        if row is None:
            raise Refused("no_invitation")
        return {"id": row.id, "table_id": row.table_id, "inviter_id": row.inviter_id, "waiting": bool(row[3])}

    def drop_invitation(self, me: str, invitation_id: str) -> bool:
        """``me``'s invitation is gone (accepted, declined, lapsed); False if it was not there."""
        with self.db.engine.begin() as conn:
            gone = conn.execute(
                delete(invitations_t).where(invitations_t.c.id == invitation_id, invitations_t.c.invitee_id == me)
            ).rowcount
        return bool(gone)

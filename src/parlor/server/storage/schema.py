"""The database schema (SQLAlchemy Core): one table's rows across ``parlor_tables``, ``parlor_seats``,
``parlor_actions`` (its record), ``parlor_events``, ``parlor_chat`` and ``parlor_replays``; the site's
processes and leases (several processes on PostgreSQL); the players' accounts, sessions and ratings
(``accounts.py``, ``ratings.py``). Alembic's migrations (``migrations/``) make and upgrade it;
``tests/server/test_persistence.py`` checks that they match these models."""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    false,
)

metadata = MetaData()

tables_t = Table(
    "parlor_tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(64), nullable=False),
    Column("players", Integer, nullable=False),
    Column("options", Text, nullable=False),  # JSON
    Column("seed", BigInteger, nullable=False),
    Column("engine_version", String(16), nullable=False),
    Column("status", String(16), nullable=False),  # playing | over | broken
    Column("version", Integer, nullable=False),  # number of decisions in the record
    Column("seat_timeout", Float, nullable=True),
    Column("substitute_level", String(16), nullable=False),
    Column("spectator_hash", String(64), nullable=False),
    Column("result", Text, nullable=True),  # JSON, when over
    Column("error", Text, nullable=True),  # why a table is broken
    Column("previous_table", String(32), nullable=True),
    Column("next_table", String(32), nullable=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
    Column("turn_time", Float, nullable=True),  # seconds per decision; NULL = no clock
    Column("bots_before_join", Boolean, nullable=False, server_default=false()),
    Column("host_hash", String(64), nullable=True),  # sha256 of the host's token
    Column("creator_hash", String(64), nullable=True),  # sha256 of the creating client's address
    # Hints on: a seat may ask the judge for its best moves while it plays (unrated, for learning).
    Column("hints", Boolean, nullable=False, server_default=false()),
    # Open tables, ratings and accounts (migration 0011): "private" (links only) or "public" (listed in
    # the lobby, anyone may sit down while it waits for players); rated games move the players'
    # ratings; "quick" tables were opened by quick play (matched by it); empty seats of a waiting
    # table become bots at ``fill_bots_at``; the account that created it (its creation limits).
    Column("visibility", String(8), nullable=False, server_default="private"),
    Column("rated", Boolean, nullable=False, server_default=false()),
    Column("quick", Boolean, nullable=False, server_default=false()),
    Column("fill_bots_at", DateTime(timezone=True), nullable=True),
    Column("fill_bots_after", Float, nullable=True),  # the wait in seconds (started again by StandUp)
    Column("creator_account", String(32), nullable=True),
    Column("ratings_done", Boolean, nullable=False, server_default=false()),  # a rated game's ratings applied
    # JSON: the scenario the game starts from (a practice table's dealt position,
    # {"saved_state": ...}); NULL: a new game from the seed. Never sent: it holds hidden cards.
    Column("scenario", Text, nullable=True),
    # A turn-based table (migration 0019_turn_based): each decision may take up to this many days; NULL: a live table.
    Column("days_per_move", Integer, nullable=True),
    Index("ix_parlor_tables_status", "status"),
    Index("ix_parlor_tables_creator", "creator_hash", "status"),
    Index("ix_parlor_tables_open", "visibility", "status"),
    Index("ix_parlor_tables_creator_account", "creator_account", "status"),
)

seats_t = Table(
    "parlor_seats",
    metadata,
    Column("table_id", String(32), ForeignKey("parlor_tables.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(8), nullable=False),  # human | bot
    Column("level", String(16), nullable=True),
    Column("name", String(40), nullable=True),
    Column("token_hash", String(64), nullable=True),  # sha256 of the seat's token (humans)
    Column("joined", Boolean, nullable=False),
    Column("stand_in", Boolean, nullable=False, server_default=false()),  # the host let a bot play it
    # The running turn clock: when it runs out, and for which decision (the table's version then),
    # so that a restarted server resumes it instead of giving a full turn again.
    Column("clock_ends_at", DateTime(timezone=True), nullable=True),
    Column("clock_version", Integer, nullable=True),
    Column("claim_hash", String(64), nullable=True),  # sha256 of the one-time code of its join link
    # sha256 of the token a host's new link replaced: its holder is told what happened (migration 0009)
    Column("replaced_hash", String(64), nullable=True),
    # The account the seat belongs to (a seat taken while signed in, or a rematch's invitation): its
    # player reconnects from any device by signing in (migration 0011). Kept when the account is
    # deleted (the seat's name is cleared: "deleted player").
    Column("account_id", String(32), nullable=True),
    # A seat sat down in (the lobby, quick play): the SHA-256 of the client address that sat down (the
    # per-address limit on seats held counts it), and the moment by which its holder must open the
    # table, cleared when a WebSocket opens it (migration 0012).
    Column("sat_from", String(64), nullable=True),
    Column("open_by", DateTime(timezone=True), nullable=True),
    # At a turn-based table, the decision this seat is asked (migration 0019_turn_based): since when it waits, when
    # its time runs out, and the table's version then (a note for an older decision never overwrites a
    # newer one). NULL when the seat is not asked. The deadline scan reads ``turn_deadline``.
    Column("turn_since", DateTime(timezone=True), nullable=True),
    Column("turn_deadline", DateTime(timezone=True), nullable=True),
    Column("turn_version", Integer, nullable=True),
    Index("ix_parlor_seats_account", "account_id"),
    Index("ix_parlor_seats_turn_deadline", "turn_deadline"),
    Index("ix_parlor_seats_sat_from", "sat_from"),
)

actions_t = Table(
    "parlor_actions",
    metadata,
    Column("table_id", String(32), ForeignKey("parlor_tables.id", ondelete="CASCADE"), primary_key=True),
    Column("idx", Integer, primary_key=True),  # position in the record
    Column("seat", Integer, nullable=False),
    Column("action", Text, nullable=False),  # the action's JSON
    Column("by", String(12), nullable=False),  # player | bot | substitute | stand_in | clock
    Column("created_at", DateTime(timezone=True), nullable=False),
    # When the mover's turn clock was to run out as it decided (NULL: no clock ran): an undo of this
    # decision gives the clock back as it stood, never more time (migration 0009).
    Column("clock_ends_at", DateTime(timezone=True), nullable=True),
)

events_t = Table(
    "parlor_events",
    metadata,
    Column("table_id", String(32), ForeignKey("parlor_tables.id", ondelete="CASCADE"), primary_key=True),
    Column("idx", Integer, primary_key=True),  # position in the table's event log
    Column("action_idx", Integer, nullable=False),  # the decision that caused it
    Column("kind", String(64), nullable=False),
    Column("data", Text, nullable=False),  # JSON
    Column("visible_to", Text, nullable=True),  # JSON list of seats; NULL = public
)

chat_t = Table(
    "parlor_chat",
    metadata,
    Column("table_id", String(32), ForeignKey("parlor_tables.id", ondelete="CASCADE"), primary_key=True),
    Column("idx", Integer, primary_key=True),  # position in the table's chat
    Column("seat", Integer, nullable=False),  # -1: a spectator (they share one anonymous link)
    Column("text", Text, nullable=False),
    Column("version", Integer, nullable=False),  # decisions taken when it was said (for the replay)
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("channel", String(16), nullable=False, server_default="table"),  # "table" or "spectators"
    # A moderator deleted it for everyone: its text is cleared, its place kept (migration 0014)
    Column("deleted", Boolean, nullable=False, server_default=false()),
)

replays_t = Table(
    "parlor_replays",
    metadata,
    Column("table_id", String(32), ForeignKey("parlor_tables.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),  # -1: the spectators' replay
    Column("steps", Text, nullable=False),  # JSON: the replay's steps, as served
    Column("created_at", DateTime(timezone=True), nullable=False),
)

# A turn-based table's last state (migration 0020_snapshots), stored when it leaves memory, so that
# loading it again reads one row instead of replaying its whole record. ``version``: how many decisions
# the record held then (a snapshot of another version is not used); ``data``: JSON (the engine's saved
# state, the event log and what undo needs). It holds hidden cards: never sent. A snapshot that is
# missing, stale or unreadable only costs a replay.
snapshots_t = Table(
    "parlor_snapshots",
    metadata,
    Column("table_id", String(32), ForeignKey("parlor_tables.id", ondelete="CASCADE"), primary_key=True),
    Column("version", Integer, nullable=False),
    Column("data", Text, nullable=False),
)

# Game review (parlor.review): a finished table's review of a seat, stored as it grows (a decision at a
# time, so a restarted server carries on), and the hints a seat asked for while it played.
reviews_t = Table(
    "parlor_reviews",
    metadata,
    Column("table_id", String(32), ForeignKey("parlor_tables.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("review", Text, nullable=False),  # JSON: Review.to_json(), complete or not yet
    Column("decisions", Integer, nullable=False),  # decisions judged so far
    Column("complete", Boolean, nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
)

hints_t = Table(
    "parlor_hints",
    metadata,
    Column("table_id", String(32), ForeignKey("parlor_tables.id", ondelete="CASCADE"), primary_key=True),
    Column("version", Integer, primary_key=True),  # the decision it was asked at (decisions before it)
    Column("seat", Integer, primary_key=True),
    Column("hint", Text, nullable=False),  # JSON: Hint.to_json()
    Column("created_at", DateTime(timezone=True), nullable=False),
)

# Several processes as one site (PostgreSQL; storage/site.py, table/site.py).
processes_t = Table(
    "parlor_processes",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("address", String(64), nullable=False),  # host:port where the other processes reach it
    Column("heartbeat_at", DateTime(timezone=True), nullable=False),
)

leases_t = Table(
    "parlor_leases",
    metadata,
    Column("table_id", String(32), ForeignKey("parlor_tables.id", ondelete="CASCADE"), primary_key=True),
    Column("owner", String(32), nullable=False),  # a parlor_processes.id
    Column("expires_at", DateTime(timezone=True), nullable=False),
    Index("ix_parlor_leases_owner", "owner"),
)

settings_t = Table(
    "parlor_settings",
    metadata,
    Column("name", String(64), primary_key=True),
    Column("value", Text, nullable=False),
)


# ---- players (migration 0011; storage/accounts.py, storage/ratings.py) ----------------------------
accounts_t = Table(
    "parlor_accounts",
    metadata,
    Column("id", String(32), primary_key=True),  # random; never shown
    Column("name", String(40), nullable=True),  # as the player wrote it; NULL once deleted
    Column("name_key", String(40), nullable=True, unique=True),  # the name folded (NFKC, casefold): unique
    # SHA-256 of what the name looks like (its UTS #39 skeleton, accounts/names.py): unique, so that no
    # two accounts hold look-alike names; NULL once deleted (migration 0013)
    Column("name_skeleton", String(64), nullable=True),
    Column("password_hash", Text, nullable=True),  # argon2id (argon2-cffi's encoded form); NULL once deleted
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("deleted_at", DateTime(timezone=True), nullable=True),
    # Moderation (migration 0014): a moderator of the site (``parlor admin add NAME``), and a name a
    # moderator hid from the leaderboards (its games and ratings stay).
    Column("admin", Boolean, nullable=False, server_default=false()),
    Column("board_hidden", Boolean, nullable=False, server_default=false()),
    Index("ix_parlor_accounts_name_skeleton", "name_skeleton", unique=True),
)

sessions_t = Table(
    "parlor_sessions",
    metadata,
    Column("id", String(64), primary_key=True),  # sha256 of the session cookie's secret
    Column("account_id", String(32), ForeignKey("parlor_accounts.id", ondelete="CASCADE"), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("seen_at", DateTime(timezone=True), nullable=False),
    Column("expires_at", DateTime(timezone=True), nullable=False),
    Index("ix_parlor_sessions_account", "account_id"),
)

# Sign-in and sign-up attempts, counted per key (a name, an address: SHA-256 of either) for the rate
# limits, shared by every process of a site (storage/accounts.py: an attempt is stored before it runs).
auth_events_t = Table(
    "parlor_auth_events",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("kind", String(16), nullable=False),  # signin_name | signin_address | signup
    Column("key", String(64), nullable=False),
    Column("at", DateTime(timezone=True), nullable=False),
    Index("ix_parlor_auth_events_key", "kind", "key", "at"),
)

# An account's vacation (migration 0019_turn_based): the days of the calendar year ``year`` it has used, and while
# one runs, until when. Its turn-based deadlines are moved on by the vacation's length.
vacations_t = Table(
    "parlor_vacations",
    metadata,
    Column("account_id", String(32), ForeignKey("parlor_accounts.id", ondelete="CASCADE"), primary_key=True),
    Column("year", Integer, nullable=False),
    Column("days_used", Integer, nullable=False),
    Column("until", DateTime(timezone=True), nullable=True),
)

ratings_t = Table(
    "parlor_ratings",
    metadata,
    Column("account_id", String(32), ForeignKey("parlor_accounts.id", ondelete="CASCADE"), primary_key=True),
    Column("game", String(64), primary_key=True),
    Column("players_class", String(8), primary_key=True),  # "2", "3-4" or "5-6" players
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
    Index("ix_parlor_ratings_board", "game", "players_class"),
)

rating_history_t = Table(
    "parlor_rating_history",
    metadata,
    Column("account_id", String(32), ForeignKey("parlor_accounts.id", ondelete="CASCADE"), primary_key=True),
    Column("table_id", String(32), ForeignKey("parlor_tables.id", ondelete="CASCADE"), primary_key=True),
    Column("game", String(64), nullable=False),
    Column("players_class", String(8), nullable=False),
    Column("mu_before", Float, nullable=False),
    Column("sigma_before", Float, nullable=False),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("place", Integer, nullable=False),  # the place the rating counted (a leaver's: last)
    Column("abandoned", Boolean, nullable=False),  # the player left the game: counted as a loss
    Column("at", DateTime(timezone=True), nullable=False),
)


# ---- friends and blocking (migration 0014_friends; storage/friends.py) -----------------------------
# One row per account one follows: one-way, like a bookmark (the followed player is not asked). The
# primary key makes following twice impossible, however many requests race.
follows_t = Table(
    "parlor_follows",
    metadata,
    Column("follower_id", String(32), ForeignKey("parlor_accounts.id", ondelete="CASCADE"), primary_key=True),
    Column("followed_id", String(32), ForeignKey("parlor_accounts.id", ondelete="CASCADE"), primary_key=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Index("ix_parlor_follows_followed", "followed_id"),
)

# One row per account one blocks: their chat is not sent to the blocker, quick play keeps them apart,
# they cannot invite the blocker, and the blocker cannot follow them while it stands.
blocks_t = Table(
    "parlor_blocks",
    metadata,
    Column("blocker_id", String(32), ForeignKey("parlor_accounts.id", ondelete="CASCADE"), primary_key=True),
    Column("blocked_id", String(32), ForeignKey("parlor_accounts.id", ondelete="CASCADE"), primary_key=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Index("ix_parlor_blocks_blocked", "blocked_id"),
)

# An invitation to sit at a table the inviter sits at; one per table and invitee (unique), gone when
# accepted or declined; it lapses when the table no longer waits for players (it started or filled).
invitations_t = Table(
    "parlor_invitations",
    metadata,
    Column("id", String(32), primary_key=True),  # random; the invitee's handle to accept or decline
    Column("table_id", String(32), ForeignKey("parlor_tables.id", ondelete="CASCADE"), nullable=False),
    Column("inviter_id", String(32), ForeignKey("parlor_accounts.id", ondelete="CASCADE"), nullable=False),
    Column("invitee_id", String(32), ForeignKey("parlor_accounts.id", ondelete="CASCADE"), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Index("ix_parlor_invitations_once", "table_id", "invitee_id", unique=True),
    Index("ix_parlor_invitations_invitee", "invitee_id"),
)

# When a signed-in player last had the lobby or their account page open (they ask for their friends
# panel every few seconds): "online" to those who follow them. Written at most every half minute.
presence_t = Table(
    "parlor_presence",
    metadata,
    Column("account_id", String(32), ForeignKey("parlor_accounts.id", ondelete="CASCADE"), primary_key=True),
    Column("seen_at", DateTime(timezone=True), nullable=False),
)

# ---- moderation (migration 0014; storage/moderation.py) ------------------------------------------
# A player's report of another: the same reporter reports the same thing once (the unique index on
# ``subject``: "player", "table:<id>" or "chat:<id>:<idx>", never NULL, so the index compares it).
reports_t = Table(
    "parlor_reports",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("reporter_id", String(32), ForeignKey("parlor_accounts.id", ondelete="CASCADE"), nullable=False),
    Column("reported_id", String(32), ForeignKey("parlor_accounts.id", ondelete="CASCADE"), nullable=False),
    Column("subject", String(80), nullable=False),
    Column("table_id", String(32), nullable=True),
    Column("chat_idx", Integer, nullable=True),
    Column("chat_text", Text, nullable=True),  # the reported message as it was (a moderator may delete it)
    Column("reason", String(16), nullable=False),  # one of moderation.REPORT_REASONS
    Column("text", Text, nullable=False),  # the reporter's own words (may be empty)
    Column("status", String(8), nullable=False),  # open | resolved
    Column("note", Text, nullable=True),  # the moderator's, on resolving it
    Column("resolved_by", String(32), nullable=True),
    Column("resolved_at", DateTime(timezone=True), nullable=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Index("ix_parlor_reports_once", "reporter_id", "reported_id", "subject", unique=True),
    Index("ix_parlor_reports_status", "status", "created_at"),
)

# A mute (no chat) or a ban (no sign-in, no seat) of an account, until ``until`` or until lifted.
sanctions_t = Table(
    "parlor_sanctions",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("account_id", String(32), ForeignKey("parlor_accounts.id", ondelete="CASCADE"), nullable=False),
    Column("kind", String(8), nullable=False),  # mute | ban
    Column("reason", Text, nullable=False),
    Column("until", DateTime(timezone=True), nullable=False),
    Column("by_account", String(32), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("lifted_at", DateTime(timezone=True), nullable=True),
    Index("ix_parlor_sanctions_account", "account_id", "kind"),
)

# Every moderator's action: who, what, to what, why, when (listed on the admin page).
admin_log_t = Table(
    "parlor_admin_log",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("admin_id", String(32), nullable=True),  # NULL: the command line (``parlor admin``)
    Column("admin_name", String(40), nullable=True),  # as it was then
    Column("action", String(24), nullable=False),
    Column("target", String(120), nullable=False),
    Column("reason", Text, nullable=False),
    Column("at", DateTime(timezone=True), nullable=False),
    Index("ix_parlor_admin_log_at", "at"),
)

# ---- notifications (migration 0017_notifications; storage/notifications.py) ------------------------
# What a player was told (their turn, a game over, an invitation, a tournament round): kept for the
# in-app list whatever else is switched off. ``text_key`` and ``params`` (JSON) are worded in the
# reader's language when shown, so nothing is stored in one language only.
notifications_t = Table(
    "parlor_notifications",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("account_id", String(32), ForeignKey("parlor_accounts.id", ondelete="CASCADE"), nullable=False),
    Column("kind", String(24), nullable=False),  # your_turn | game_over | invitation | tournament_round
    Column("table_id", String(32), nullable=True),  # (no foreign key: a tournament's round has none)
    Column("text_key", String(64), nullable=False),
    Column("params", Text, nullable=False),  # JSON
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("read_at", DateTime(timezone=True), nullable=True),
    Index("ix_parlor_notifications_account", "account_id", "created_at"),
)

# One row per account that chose something: its e-mail address (sent to only once verified by the
# link mailed to it), the kinds it switched off (no e-mail, no push; in-app still), its language.
notify_settings_t = Table(
    "parlor_notify_settings",
    metadata,
    Column("account_id", String(32), ForeignKey("parlor_accounts.id", ondelete="CASCADE"), primary_key=True),
    Column("email", String(254), nullable=True),
    Column("email_verified", Boolean, nullable=False, server_default=false()),
    Column("kinds_off", Text, nullable=False, server_default="[]"),  # JSON list of kinds
    Column("language", String(16), nullable=True),  # chosen on the account page
    Column("page_language", String(16), nullable=True),  # the language of the player's last page
    Column("updated_at", DateTime(timezone=True), nullable=False),
)

# A browser's Web Push subscription (its service worker's), one row per endpoint.
push_subscriptions_t = Table(
    "parlor_push_subscriptions",
    metadata,
    Column("endpoint_hash", String(64), primary_key=True),  # sha256 of the endpoint (endpoints are long)
    Column("account_id", String(32), ForeignKey("parlor_accounts.id", ondelete="CASCADE"), nullable=False),
    Column("endpoint", Text, nullable=False),
    Column("p256dh", String(128), nullable=False),
    Column("auth", String(64), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Index("ix_parlor_push_subscriptions_account", "account_id"),
)

# The site's own secrets, made at first start and shared by every process: the VAPID key pair of Web
# Push and the key that signs the unsubscribe and e-mail verification links.
site_secrets_t = Table(
    "parlor_site_secrets",
    metadata,
    Column("name", String(32), primary_key=True),
    Column("value", Text, nullable=False),
)

# ---- tournaments (migration 0018_tournaments; storage/tournaments.py) ------------------------------
# A Swiss tournament for one game and player count, made by a signed-in account. ``status``: upcoming
# (sign-ups open until ``starts_at``), running, finished, or cancelled (too few players at the start).
# ``current_round``: the round made last (0 before the start); it moves by compare-and-set, so one
# process of a site makes each round. ``turn_time``: seconds per move (live tables, the turn clock);
# ``move_days``: days per move of a turn-based tournament (its tables are turn-based; ``turn_time`` is
# NULL then), NULL for a live one.
tournaments_t = Table(
    "parlor_tournaments",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("name", String(80), nullable=False),
    Column("game", String(64), nullable=False),
    Column("players", Integer, nullable=False),  # seats a table
    Column("creator_account", String(32), ForeignKey("parlor_accounts.id", ondelete="SET NULL"), nullable=True),
    Column("starts_at", DateTime(timezone=True), nullable=False),
    Column("rounds", Integer, nullable=False),
    Column("turn_time", Float, nullable=True),
    Column("move_days", Float, nullable=True),
    Column("rated", Boolean, nullable=False),
    Column("max_players", Integer, nullable=False),
    Column("status", String(16), nullable=False),
    Column("current_round", Integer, nullable=False),
    Column("round_started_at", DateTime(timezone=True), nullable=True),  # when the current round was made
    Column("created_at", DateTime(timezone=True), nullable=False),
    Index("ix_parlor_tournaments_status", "status", "starts_at"),
)

# A player signed up (one row each: the primary key). Withdrawing before the start deletes the row;
# after it, ``withdrawn_round`` is the round they left in (that game and the later ones: losses).
tournament_players_t = Table(
    "parlor_tournament_players",
    metadata,
    Column("tournament_id", String(32), ForeignKey("parlor_tournaments.id", ondelete="CASCADE"), primary_key=True),
    Column("account_id", String(32), ForeignKey("parlor_accounts.id", ondelete="CASCADE"), primary_key=True),
    Column("joined_at", DateTime(timezone=True), nullable=False),
    Column("withdrawn_round", Integer, nullable=True),
)

# One table (``board``) of a round: its seats in order (JSON: account ids, null for a bot seat), the
# site table that plays it (NULL until made; a bye has none), and each seat's points once it ended.
tournament_tables_t = Table(
    "parlor_tournament_tables",
    metadata,
    Column("tournament_id", String(32), ForeignKey("parlor_tournaments.id", ondelete="CASCADE"), primary_key=True),
    Column("round", Integer, primary_key=True),
    Column("board", Integer, primary_key=True),
    Column("seats", Text, nullable=False),
    Column("bye", Boolean, nullable=False),
    Column("table_id", String(32), nullable=True),
    Column("points", Text, nullable=True),  # JSON list, a seat's points; NULL while the game runs
    Index("ix_parlor_tournament_tables_table", "table_id"),
)

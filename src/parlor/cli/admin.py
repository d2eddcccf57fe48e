"""``parlor admin add NAME`` / ``remove NAME`` / ``list``: the site's moderators, on the site's own
database (the ``--database-url`` that ``parlor serve`` takes). The command line is the site owner's
way in: the first moderator is made here, and only here can a moderator be removed."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from .common import clean_errors, console, fail

admin_app = typer.Typer(
    name="admin",
    help="The site's moderators (for `parlor serve`): add NAME, remove NAME, list.",
    no_args_is_help=True,
    context_settings={"help_option_names": ["-h", "--help"]},
)

DatabaseOpt = Annotated[
    str | None,
    typer.Option(
        "--database-url",
        metavar="URL",
        help="The site's database, as for `parlor serve` (also read from $PARLOR_DATABASE_URL).",
        show_default="SQLite in ~/.local/share/parlor/parlor.db",
    ),
]
if TYPE_CHECKING:
    from parlor.server.storage import Database, ModerationStore

NameArg = Annotated[str, typer.Argument(help="A player's account name.", metavar="NAME")]


def _store(database_url: str | None) -> tuple[Database, ModerationStore]:
    """The site's moderation rows, its database checked (one line if it cannot be used) and migrated."""
    from parlor.server.__main__ import StartupError, check_database
    from parlor.server.storage import Database, ModerationStore, default_database_url

    url = database_url or default_database_url()
    try:
        check_database(url)
    except StartupError as exc:
        raise fail(str(exc)) from None
    db = Database(url)
    db.migrate()  # (a site's database older than this Parlor gets the moderators' columns, as `serve` would)
    return db, ModerationStore(db)


def _set(name: str, on: bool, database_url: str | None) -> None:
    from parlor.server.accounts import fold_name

    with clean_errors():
        db, store = _store(database_url)
        try:
            found = store.set_admin(fold_name(" ".join(name.split())), on)
        finally:
            db.close()
    if not found:
        raise fail(f"no account is called {name!r} (the player signs up on the site first)")
    console().print(f"{name} is {'now' if on else 'no longer'} a moderator")


@admin_app.command("add")
def add(name: NameArg, database_url: DatabaseOpt = None) -> None:
    """Make the account NAME a moderator (it may then open /admin)."""
    _set(name, True, database_url)


@admin_app.command("remove")
def remove(name: NameArg, database_url: DatabaseOpt = None) -> None:
    """NAME is no longer a moderator."""
    _set(name, False, database_url)


@admin_app.command("list")
def list_admins(database_url: DatabaseOpt = None) -> None:
    """The site's moderators, one a line."""
    with clean_errors():
        db, store = _store(database_url)
        try:
            names = store.admins()
        finally:
            db.close()
    out = console()
    for name in names:
        out.print(name, markup=False)
    if not names:
        out.print("no moderators yet: parlor admin add NAME")


def register(app: typer.Typer) -> None:
    app.add_typer(admin_app)

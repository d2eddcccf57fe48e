"""The web front end's pages (static files, no build step): the HTML pages, and the installable
app's service worker and manifest."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, FastAPI
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles

WEB = Path(__file__).resolve().parents[2] / "web"  # the browser front end (src/parlor/web)

router = APIRouter()


def mount_static(app: FastAPI) -> None:
    """``/static``: the front end's scripts, styles and images (a mount belongs to the app, not to a router)."""
    app.mount("/static", StaticFiles(directory=WEB), name="static")


@router.get("/", include_in_schema=False)
async def index() -> FileResponse:
    return FileResponse(WEB / "index.html")


@router.get("/play/{table_id}", include_in_schema=False)
async def play_page(table_id: str) -> FileResponse:
    return FileResponse(WEB / "table.html")  # the token is in the URL fragment, read by the page


@router.get("/account", include_in_schema=False)
async def account_page() -> FileResponse:
    return FileResponse(WEB / "account.html")


@router.get("/players/{name}", include_in_schema=False)
async def profile_page(name: str) -> FileResponse:
    return FileResponse(WEB / "profile.html")


@router.get("/leaderboard", include_in_schema=False)
async def leaderboard_page() -> FileResponse:
    return FileResponse(WEB / "leaderboard.html")  # the game and class are in the query, read by the page


@router.get("/tournaments", include_in_schema=False)
async def tournaments_page() -> FileResponse:
    return FileResponse(WEB / "tournaments.html")


@router.get("/tournaments/{tournament_id}", include_in_schema=False)
async def tournament_page(tournament_id: str) -> FileResponse:
    return FileResponse(WEB / "tournaments.html")  # the page reads the id from its address


@router.get("/replay/{table_id}", include_in_schema=False)
async def replay_page(table_id: str) -> FileResponse:
    return FileResponse(WEB / "replay.html")


# The installable app (web/js/pwa.js): a service worker covers only the pages under its own
# address, so it is served from the root, and the manifest beside it.
@router.get("/sw.js", include_in_schema=False)
async def service_worker() -> FileResponse:
    return FileResponse(WEB / "sw.js", media_type="text/javascript", headers={"Cache-Control": "no-cache"})


@router.get("/manifest.webmanifest", include_in_schema=False)
async def manifest() -> FileResponse:
    return FileResponse(WEB / "manifest.webmanifest", media_type="application/manifest+json")

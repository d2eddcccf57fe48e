from pathlib import Path

from parlor import games
from parlor.rl import encoding

DOCS = Path(__file__).resolve().parents[2] / "docs" / "rl.md"


def test_every_tensor_slice_is_documented() -> None:
    text = DOCS.read_text(encoding="utf-8")
    for game in games.all_games():
        section = text.split(f"### {game.name}\n", 1)[1]
        for _, _, name, _ in encoding(game).LAYOUT.describe():
            assert f"`{name}`" in section, f"{game.name}: slice {name} is missing from docs/rl.md"

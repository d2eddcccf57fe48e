"""Print the strength ladder (docs/strength/*.json from scripts/strength) as Markdown tables.

    python scripts/strength_table.py [docs/strength]
"""

from __future__ import annotations

import itertools
import json
import sys
from pathlib import Path

LEVELS = ["expert", "hard", "medium", "easy", "random"]
GAMES = ["mamma-mia", "sweet-nose", "mottainai"]


def main(folder: str = "docs/strength") -> int:
    results = [json.loads(p.read_text()) for p in sorted(Path(folder).glob("*.json"))]
    missing = 0
    for game in GAMES:
        for players in sorted({r["players"] for r in results if r["game"] == game}):
            print(f"\n### {game}, {players} players\n")
            print("| pair | games | score of the stronger | 95% interval | stronger? | command |")
            print("|---|---:|---:|---|---|---|")
            for a, b in itertools.pairwise(LEVELS):
                match = [r for r in results if r["game"] == game and r["players"] == players and r["bots"] == [a, b]]
                if not match:
                    missing += 1
                    print(f"| {a} > {b} | | | | not run yet | |")
                    continue
                r = match[0]
                step = r["ladder"][0]
                low, high = step["ci95"]
                command = (
                    f"`parlor tournament {game} --players {players} --bots {a},{b} "
                    f"--games {r['games']} --seed {r['seed']} --json`"
                )
                verdict = "yes" if step["a_better"] else "**not shown**"
                interval = f"[{low:.3f}, {high:.3f}]"
                print(f"| {a} > {b} | {r['games']} | {step['score']:.3f} | {interval} | {verdict} | {command} |")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))

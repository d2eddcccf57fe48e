"""Print the strength ladder (docs/strength/*.json from scripts/strength) as Markdown tables.

    python scripts/strength_table.py [docs/strength] [--write docs/strength.md]

With ``--write``, the tables replace what stands between the ladder markers in that file.
"""

from __future__ import annotations

import itertools
import json
import sys
from pathlib import Path

LEVELS = ["expert", "hard", "medium", "easy", "random"]
GAMES = ["mamma-mia", "sweet-nose", "mottainai"]


START, END = "<!-- ladder:start -->", "<!-- ladder:end -->"


def main(folder: str = "docs/strength", write: str | None = None) -> int:
    lines: list[str] = []
    out = lines.append  # the tables are collected, then printed or written
    results = [json.loads(p.read_text()) for p in sorted(Path(folder).glob("*.json"))]
    missing = 0
    for game in GAMES:
        for players in sorted({r["players"] for r in results if r["game"] == game}):
            out(f"\n### {game}, {players} players\n")
            out("| pair | games | score of the stronger | 95% interval | stronger? | command |")
            out("|---|---:|---:|---|---|---|")
            for a, b in itertools.pairwise(LEVELS):
                match = [r for r in results if r["game"] == game and r["players"] == players and r["bots"] == [a, b]]
                if not match:
                    missing += 1
                    out(f"| {a} > {b} | | | | not run yet | |")
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
                out(f"| {a} > {b} | {r['games']} | {step['score']:.3f} | {interval} | {verdict} | {command} |")
    text = "\n".join(lines).strip() + "\n"
    if write:
        doc = Path(write).read_text()
        head, rest = doc.split(START, 1)
        _, tail = rest.split(END, 1)
        Path(write).write_text(f"{head}{START}\n{text}{END}{tail}")
    else:
        sys.stdout.write(text)
    return 1 if missing else 0


if __name__ == "__main__":
    args = sys.argv[1:]
    target = None
    if "--write" in args:
        i = args.index("--write")
        target = args[i + 1]
        del args[i : i + 2]
    sys.exit(main(*args, write=target))

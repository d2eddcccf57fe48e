"""``python -m parlor``: the same as the ``parlor`` command."""

from parlor.cli.main import app

if __name__ == "__main__":
    app(prog_name="parlor")

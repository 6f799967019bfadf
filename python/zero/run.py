"""A run directory of ``zero run`` (or a data directory of ``zero selfplay``) as tables.

Shards open through pyarrow as Arrow tables (``.to_pandas()`` turns one into a DataFrame); the JSON-lines files
(``metrics.jsonl``, ``generations.jsonl``) as lists of dicts, which ``pandas.DataFrame`` takes as they are. The
file layout is docs/data.md's.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

# A file whose name holds this is a temporary of a writer that has not finished it (docs/data.md).
_TEMPORARY = ".zero-tmp-"


class Run:
    """The run directory (or bare data directory) at ``path``."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        if not self.path.is_dir():
            raise FileNotFoundError(f"run directory {self.path}: not a directory")
        data = self.path / "data"
        # A run directory keeps its shards under data/; `zero selfplay --out DIR` writes them into DIR itself.
        self.data_dir = data if data.is_dir() else self.path

    def __repr__(self) -> str:
        return f"Run({str(self.path)!r})"

    def position_files(self) -> list[Path]:
        """The complete shards' positions files, by name (a shard is complete once this file exists)."""
        files = set(self.data_dir.glob("*.positions.parquet"))
        # Written before the suffix existed: NAME.parquet beside NAME.games.parquet.
        files |= {
            p
            for p in self.data_dir.glob("*.parquet")
            if not p.name.endswith((".games.parquet", ".positions.parquet"))
        }
        return sorted(p for p in files if _TEMPORARY not in p.name)

    def game_files(self) -> list[Path]:
        """The games files of the complete shards, in the order of ``position_files``."""
        out = []
        for positions in self.position_files():
            name = positions.name
            stem = name[: -len(".positions.parquet")] if name.endswith(".positions.parquet") else name[: -len(".parquet")]
            games = positions.with_name(stem + ".games.parquet")
            if games.exists():
                out.append(games)
        return out

    def positions(self, columns: list[str] | None = None) -> Any:
        """Every searched position of the run as one ``pyarrow.Table`` (docs/data.md lists the columns)."""
        return _read_tables(self.position_files(), columns, "positions")

    def games(self, columns: list[str] | None = None) -> Any:
        """Every finished game of the run as one ``pyarrow.Table``: start position, moves, winner, reason."""
        return _read_tables(self.game_files(), columns, "games")

    def header(self) -> dict[str, Any]:
        """The newest-named shard's header: run, generation, game, rules, input shape, action space."""
        files = self.position_files()
        if not files:
            raise FileNotFoundError(f"{self.data_dir}: no complete shard")
        import pyarrow.parquet as pq

        metadata = pq.read_metadata(files[-1]).metadata or {}
        if b"zero.header" not in metadata:
            raise ValueError(f"{files[-1]}: no zero.header in its footer; not a zero shard")
        return json.loads(metadata[b"zero.header"])

    def metrics(self) -> list[dict[str, Any]]:
        """The trainer's steps (``metrics.jsonl``), one dict per step with its generation and clock."""
        return _read_json_lines(self.path / "metrics.jsonl")

    def generations(self) -> list[dict[str, Any]]:
        """One dict per finished generation (``generations.jsonl``): its ratings, health and phase times."""
        return _read_json_lines(self.path / "generations.jsonl")

    def checkpoints(self) -> list[Path]:
        """The run's network checkpoints, oldest generation first."""
        found = (self.path / "checkpoints").glob("gen*.safetensors")
        nets = [p for p in found if not p.name.endswith(".train.safetensors")]
        return sorted(nets, key=lambda p: int("".join(c for c in p.stem if c.isdigit()) or 0))


def _read_tables(files: list[Path], columns: list[str] | None, what: str) -> Any:
    import pyarrow as pa
    import pyarrow.parquet as pq

    if not files:
        raise FileNotFoundError(f"no {what} file found")
    tables = [pq.read_table(f, columns=columns) for f in files]
    # Each file has its own dictionaries for the header columns; unify them so the tables concatenate.
    return pa.concat_tables([t.unify_dictionaries() for t in tables], promote_options="permissive")


def _read_json_lines(path: Path) -> list[dict[str, Any]]:
    """The rows of a JSON-lines file; a last line cut short (a writer killed mid-line) is left out."""
    if not path.exists():
        raise FileNotFoundError(f"{path}: no such file")
    text = path.read_text(encoding="utf-8")
    lines = text.split("\n")
    rows = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            rows.append(json.loads(line))
        except json.JSONDecodeError as error:
            if number == len(lines) and not text.endswith("\n"):
                break
            raise ValueError(f"{path}:{number}: not a JSON object: {error}") from None
    return rows

//! Where finished games go: a small trait, with a shard writer (zero-data Parquet shards) and an in-memory sink
//! for tests. Only the one writer thread touches a sink.

use std::path::PathBuf;
use zero_data::{DataError, GameRecord, PositionRecord, ShardHeader, ShardWriter};

/// Receives finished games in game-index order.
pub trait GameSink {
    fn finished(&mut self, game: GameRecord, positions: Vec<PositionRecord>) -> Result<(), SinkError>;
    /// Writes whatever is still buffered.
    fn close(&mut self) -> Result<(), SinkError>;
}

/// A sink could not store a game.
#[derive(Debug, thiserror::Error)]
pub enum SinkError {
    #[error(transparent)]
    Data(#[from] DataError),
}

/// Keeps every game in memory.
#[derive(Debug, Default)]
pub struct MemorySink {
    pub games: Vec<(GameRecord, Vec<PositionRecord>)>,
}

impl GameSink for MemorySink {
    fn finished(&mut self, game: GameRecord, positions: Vec<PositionRecord>) -> Result<(), SinkError> {
        self.games.push((game, positions));
        Ok(())
    }

    fn close(&mut self) -> Result<(), SinkError> {
        Ok(())
    }
}

/// Writes shards of `games_per_shard` games named `{prefix}-{index:05}` into a directory.
pub struct ShardSink {
    dir: PathBuf,
    prefix: String,
    header: ShardHeader,
    games_per_shard: usize,
    next_shard: usize,
    current: Option<ShardWriter>,
    /// Shards written so far: (positions path, games, positions).
    pub written: Vec<(PathBuf, usize, usize)>,
}

impl ShardSink {
    pub fn new(dir: PathBuf, prefix: String, header: ShardHeader, games_per_shard: usize) -> Self {
        ShardSink {
            dir,
            prefix,
            header,
            games_per_shard: games_per_shard.max(1),
            next_shard: 0,
            current: None,
            written: Vec::new(),
        }
    }

    fn flush(&mut self) -> Result<(), SinkError> {
        if let Some(writer) = self.current.take() {
            let summary = writer.finish()?;
            self.written
                .push((summary.positions_path, summary.games, summary.positions));
        }
        Ok(())
    }
}

impl GameSink for ShardSink {
    fn finished(&mut self, game: GameRecord, positions: Vec<PositionRecord>) -> Result<(), SinkError> {
        if self.current.is_none() {
            let name = format!("{}-{:05}", self.prefix, self.next_shard);
            self.next_shard += 1;
            self.current = Some(ShardWriter::create(&self.dir, &name, self.header.clone())?);
        }
        let writer = self.current.as_mut().expect("a shard is open");
        writer.add_game(&game, &positions)?;
        if writer.games() >= self.games_per_shard {
            self.flush()?;
        }
        Ok(())
    }

    fn close(&mut self) -> Result<(), SinkError> {
        self.flush()
    }
}

//! Write and read speed and size of Bashni-sized shards: `cargo bench -p zero-data --bench shard_io`
//! (optionally with a row count argument after `--`). Rows mimic Bashni: 40 planes of 8 x 8 (2560 input bytes,
//! mostly zero, a few constant planes), about 10 legal actions of 896, a policy on a quarter of the rows
//! (playout cap randomization), games of 80 positions.

use std::time::Instant;

use zero_data::{
    GameRecord, PositionRecord, ReplayConfig, ReplayIndex, SampleStream, ShardHeader, ShardSet, ShardWriter,
    WindowRule, read_shard,
};

const PLANES: usize = 40;
const CELLS: usize = 64;
const GAME_LENGTH: u32 = 80;

/// A small deterministic generator, so that every run writes the same bytes.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn header() -> ShardHeader {
    ShardHeader {
        run: "bench".into(),
        generation: 3,
        model_id: "gen-0003".into(),
        game: "bashni".into(),
        rules: "standard".into(),
        encoding_version: 1,
        input_shape: [PLANES as u32, 8, 8],
        action_space: 896,
    }
}

fn position(rng: &mut SplitMix, game_id: &str, step: u32) -> PositionRecord {
    let mut input = vec![0u8; PLANES * CELLS];
    // 24 pieces in the top levels of towers on the 32 dark squares, a few deeper tower pieces.
    for _ in 0..24 {
        let plane = rng.below(4) as usize;
        let square = rng.below(32) as usize * 2 + (rng.below(2) as usize);
        input[plane * CELLS + square] = 255;
    }
    for _ in 0..6 {
        let plane = 4 + rng.below(28) as usize;
        input[plane * CELLS + rng.below(64) as usize] = 255;
    }
    // Constant planes: side to move, and a normalized move counter.
    input[36 * CELLS..37 * CELLS].fill(255);
    input[38 * CELLS..39 * CELLS].fill((step * 3 % 256) as u8);
    let legal: Vec<u16> = (0..2 + rng.below(14)).map(|_| rng.below(896) as u16).collect();
    let full_search = rng.below(4) == 0;
    let (policy_actions, policy_probs) = if full_search {
        let p = 1.0 / legal.len() as f32;
        (legal.clone(), vec![p; legal.len()])
    } else {
        (vec![], vec![])
    };
    PositionRecord {
        game_id: game_id.to_string(),
        ply: step / 2,
        step,
        side_to_move: (step % 2) as u8,
        position: format!("W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8 {step}"),
        input,
        legal_actions: legal,
        policy_actions,
        policy_probs,
        root_value: (rng.below(2001) as f32 - 1000.0) / 1000.0,
        result: [1.0, 0.0, -1.0][rng.below(3) as usize],
        plies_to_end: GAME_LENGTH - step,
        full_search,
        simulations: if full_search { 600 } else { 100 },
        short_value: (rng.below(2001) as f32 - 1000.0) / 1000.0,
        score: 0.0,
    }
}

fn main() {
    let rows: usize = std::env::args().skip(1).find_map(|a| a.parse().ok()).unwrap_or(100_000);
    let dir = tempfile::tempdir().expect("temporary directory");
    let mut rng = SplitMix(1);
    let games: Vec<(GameRecord, Vec<PositionRecord>)> = (0..rows.div_ceil(GAME_LENGTH as usize))
        .map(|g| {
            let id = format!("bench-{g}");
            let positions = (0..GAME_LENGTH).map(|s| position(&mut rng, &id, s)).collect();
            let game = GameRecord {
                game_id: id,
                start_position: "start".into(),
                moves: (0..GAME_LENGTH).map(|s| format!("c3-d4 {s}")).collect(),
                winner: Some((g % 2) as u8),
                reason: "no-legal-move".into(),
                plies: GAME_LENGTH,
                resigned_false_check: false,
            };
            (game, positions)
        })
        .collect();
    let written_rows: usize = games.iter().map(|(_, p)| p.len()).sum();

    let start = Instant::now();
    let mut writer = ShardWriter::create(dir.path(), "bench", header()).expect("writer");
    for (game, positions) in &games {
        writer.add_game(game, positions).expect("add_game");
    }
    let add_s = start.elapsed().as_secs_f64();
    let summary = writer.finish().expect("finish");
    let write_s = start.elapsed().as_secs_f64();

    let start = Instant::now();
    let (_, read) = read_shard(&summary.positions_path).expect("read");
    let read_s = start.elapsed().as_secs_f64();
    assert_eq!(read.len(), written_rows);

    let set = ShardSet::scan(dir.path()).expect("scan");
    let (index, _) = ReplayIndex::build(
        &set,
        &WindowRule::Fixed {
            positions: written_rows,
        },
        None,
    );
    let config = ReplayConfig {
        shuffle_buffer: 50_000,
        ..ReplayConfig::default()
    };
    let start = Instant::now();
    let drawn = SampleStream::new(&index, &config).draw(written_rows).expect("samples");
    let sample_s = start.elapsed().as_secs_f64();
    assert_eq!(drawn.samples.len(), written_rows);

    let bytes_per_row = summary.positions_bytes as f64 / written_rows as f64;
    println!("rows: {written_rows} ({} input bytes each)", PLANES * CELLS);
    println!(
        "write (add_game + finish, both files): {:.0} ms ({:.0} ms in add_game), {:.0} k rows/s",
        write_s * 1e3,
        add_s * 1e3,
        written_rows as f64 / write_s / 1e3
    );
    println!(
        "read_shard (all columns): {:.0} ms, {:.0} k rows/s",
        read_s * 1e3,
        written_rows as f64 / read_s / 1e3
    );
    println!(
        "SampleStream (buffer 50 000): {:.0} ms for {written_rows} samples",
        sample_s * 1e3
    );
    println!(
        "positions file: {:.1} MiB, {bytes_per_row:.0} bytes/row; games file: {:.1} KiB",
        summary.positions_bytes as f64 / (1 << 20) as f64,
        summary.games_bytes as f64 / 1024.0
    );
    println!(
        "1 M positions on disk: {:.2} GiB",
        bytes_per_row * 1e6 / (1u64 << 30) as f64
    );
}

//! A generation's evaluation inside a run.
//!
//! The new network plays each baseline and its parent; the baselines play each other once per run (their games
//! would not change from one generation to the next, and alpha-beta's are the slowest to play). Each pairing's
//! games are written to a file of their own when the pairing finishes, atomically, so an evaluation killed
//! half-way replays only the pairings it had not finished:
//!
//! ```text
//! games/baselines/random-vs-greedy.jsonl       played once, by the first evaluation that needs them
//! games/gen-0004/vs-alphabeta_depth_4.jsonl    network gen4 against a baseline
//! games/gen-0004/vs-gen3.jsonl                 ... and against its parent
//! ```
//!
//! Ratings are fitted over every evaluation game of the run (Bradley-Terry, anchored at `random`), so each
//! generation's rating rests on all the games so far, and the baselines' ratings settle as the run goes on.
//! A player's name is its identity in that pool: a config that changes `eval_simulations` part-way makes the
//! later networks a different kind of player under the same kind of name, which the pool cannot tell apart.

use crate::config::{LoopConfig, RunConfig};
use crate::dir::RunDir;
use crate::error::{Context, Result, bail};
use crate::summary::{EqualTimeResult, MatchScore, OracleSummary, SideScore, is_network_name, network_name};
use indicatif::ProgressBar;
use std::path::{Path, PathBuf};
use zero_arena::{
    Entrant, MatchOptions, MatchRecord, Network, OpeningBook, PlayerKind, PlayerSpec, Standings, head_to_head,
    rate_records,
};
use zero_games::{Game, GameKind, Registered, Side};
use zero_search::PlaySearch;
use zero_search::alphabeta::SearchLimit;

/// The player every rating is relative to, when the run's baselines include it.
const ANCHOR: &str = "random";

/// One pairing to play (or already played): its players and where its games are kept.
pub(crate) struct Pairing<'a, G: Registered> {
    pub a: &'a Entrant<G>,
    pub b: &'a Entrant<G>,
    pub file: PathBuf,
    /// Where in the opening book the pairing starts, so that a generation's pairings cover different openings.
    pub first_opening: usize,
}

impl<G: Registered> Pairing<'_, G> {
    /// The pairing's `games` games (paired colours): read back from its file when it has one, else played and
    /// written there atomically. The seed comes from the file's name within the run, so the same pairing always
    /// plays the same games, whichever process or machine plays it.
    pub fn games(
        &self,
        rules: &G::Rules,
        dir: &RunDir,
        run_seed: u64,
        book: &OpeningBook,
        games: usize,
        timed_games_at_once: usize,
    ) -> Result<Vec<MatchRecord>> {
        if self.file.exists() {
            return Ok(zero_arena::records::read_jsonl(&self.file)?);
        }
        let options = MatchOptions {
            games_per_pair: games,
            seed: zero_selfplay::derive_seed(run_seed, stable_hash(&self.file, dir.root())),
            first_opening: self.first_opening,
            timed_games_at_once,
            ..Default::default()
        };
        let records = head_to_head::<G>(rules, self.a, self.b, book, &options)
            .with_context(|| format!("playing {} against {}", self.a.name(), self.b.name()))?;
        zero_arena::records::write_jsonl(&self.file, &records)?;
        Ok(records)
    }
}

/// Plays what generation `generation`'s evaluation still lacks and rates the run's whole pool; returns the
/// standings and the network's results against each player it met in this evaluation. `progress` draws a
/// progress bar (not beside self-play, which draws its own).
pub fn evaluate<G: Registered>(
    config: &RunConfig,
    dir: &RunDir,
    rules: &G::Rules,
    book: &OpeningBook,
    generation: u32,
    progress: bool,
) -> Result<(Standings, Vec<MatchScore>)> {
    let baselines = config
        .run
        .eval_baselines
        .iter()
        .map(|spec| Entrant::<G>::parse(spec).with_context(|| format!("run.eval_baselines: {spec:?}")))
        .collect::<Result<Vec<_>>>()?;
    let network = entrant::<G>(config, dir, generation)?;
    let parent = if config.run.eval_previous && generation >= 2 {
        Some(entrant::<G>(config, dir, generation - 1)?)
    } else {
        None
    };

    check_names(&baselines, &network)?;
    let pairings = pairings(config, dir, &baselines, &network, parent.as_ref(), generation)?;
    let todo: Vec<&Pairing<G>> = pairings.iter().filter(|p| !p.file.exists()).collect();
    let mut games_played = 0;
    if !todo.is_empty() {
        let template = "evaluating {bar:30} {pos}/{len} pairings, {msg}, ETA {eta}";
        let bar = if progress {
            crate::progress::bar(todo.len() as u64, template)
        } else {
            ProgressBar::hidden()
        };
        for p in todo {
            bar.set_message(format!("{} vs {}", p.a.name(), p.b.name()));
            games_played += p
                .games(rules, dir, config.run.seed, book, config.run.eval_games, 1)?
                .len();
            bar.inc(1);
        }
        bar.finish_and_clear();
    }
    let pool = read_pool(&dir.games_dir())?;
    let standings = rate_records(&pool, ANCHOR).context("rating the run's evaluation games")?;
    let scores = pairings
        .iter()
        .filter(|p| p.a.name() == network.name())
        .map(|p| match_score(&pool, p.a.name(), p.b.name()))
        .collect();
    tracing::info!(
        "evaluation of {}: {games_played} games played now, {} in the run's pool",
        network.name(),
        pool.len()
    );
    Ok((standings, scores))
}

/// Refuses two players of one name, and a baseline named like one of the run's networks.
fn check_names<G: Registered>(baselines: &[Entrant<G>], network: &Entrant<G>) -> Result<()> {
    let mut names: Vec<&str> = baselines.iter().map(|b| b.name()).collect();
    names.push(network.name());
    for (i, name) in names.iter().enumerate() {
        if names[..i].contains(name) {
            bail!("run.eval_baselines: two players are named {name:?}; label one with name=LABEL");
        }
        if i < baselines.len() && is_network_name(name) {
            bail!("run.eval_baselines: {name:?} is how the run names its networks; label the baseline with name=LABEL");
        }
    }
    Ok(())
}

/// The pairings of generation `generation`'s evaluation: each pair of baselines (kept once per run), and the
/// network against each baseline and its parent; their folders are made. Each pairing has a file of its own.
fn pairings<'a, G: Registered>(
    config: &RunConfig,
    dir: &RunDir,
    baselines: &'a [Entrant<G>],
    network: &'a Entrant<G>,
    parent: Option<&'a Entrant<G>>,
    generation: u32,
) -> Result<Vec<Pairing<'a, G>>> {
    let half = config.run.eval_games.div_ceil(2);
    let mut pairings = Vec::new();
    let baselines_dir = dir.games_dir().join("baselines");
    for (i, a) in baselines.iter().enumerate() {
        for b in &baselines[i + 1..] {
            let first_opening = pairings.len() * half;
            pairings.push(Pairing {
                a,
                b,
                file: baselines_dir.join(format!("{}-vs-{}.jsonl", file_stem(a.name()), file_stem(b.name()))),
                first_opening,
            });
        }
    }
    let generation_dir = dir.games_dir().join(format!("gen-{generation:04}"));
    for (k, b) in baselines.iter().chain(parent).enumerate() {
        pairings.push(Pairing {
            a: network,
            b,
            file: generation_dir.join(format!("vs-{}.jsonl", file_stem(b.name()))),
            first_opening: k * half,
        });
    }
    for (i, p) in pairings.iter().enumerate() {
        if pairings[..i].iter().any(|q| q.file == p.file) {
            bail!(
                "run.eval_baselines: {:?} and another baseline would share the games file {}; label one with name=LABEL",
                p.b.name(),
                p.file.display()
            );
        }
    }
    for folder in [&baselines_dir, &generation_dir] {
        zero_io::create_dir_durably(folder).with_context(|| format!("creating {}", folder.display()))?;
    }
    Ok(pairings)
}

/// The run's headline match (with `run.equal_time.movetime_ms`): network `generation` searching `ms` per move
/// against alpha-beta on the same time, paired colours from the run's openings. Kept in `equal-time/`, out of
/// the Elo pool: its games depend on the machine's speed, and the network plays there on another budget.
pub fn equal_time<G: Registered>(
    config: &RunConfig,
    dir: &RunDir,
    rules: &G::Rules,
    book: &OpeningBook,
    generation: u32,
) -> Result<Option<EqualTimeResult>> {
    let (player, games) = (config.run.equal_time, config.run.eval_equal_time_games);
    let Some(ms) = player.movetime_ms else {
        return Ok(None);
    };
    if games == 0 || !equal_time_due(config, generation) {
        return Ok(None);
    }
    let name = network_name(generation);
    // Built typed, never as text: a run directory's path may hold a comma, a space or `=`.
    let spec = PlayerSpec::network(Network::Checkpoint(dir.checkpoint(generation)), player).labelled(name.clone());
    let network = Entrant::<G>::prepare(spec)?;
    let opponent = PlayerSpec {
        kind: PlayerKind::AlphaBeta(SearchLimit {
            millis: Some(ms),
            ..SearchLimit::default()
        }),
        label: None,
    };
    let opponent = Entrant::<G>::prepare(opponent)?;
    let pairing = Pairing {
        a: &network,
        b: &opponent,
        file: dir.equal_time_dir().join(equal_time_file(generation, &config.run)),
        first_opening: 0,
    };
    let at_once = match config.run.eval_equal_time_parallel {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    };
    if !pairing.file.exists() {
        tracing::info!(
            "equal time: {name} against {} ({games} games, {at_once} at a time)",
            opponent.name()
        );
    }
    let records = pairing.games(rules, dir, config.run.seed, book, games, at_once)?;
    Ok(Some(EqualTimeResult {
        ms,
        result: match_score(&records, &name, opponent.name()),
        by_side: side_scores::<G>(&records, &name, opponent.name()),
    }))
}

/// The per-generation check against perfect play (`run.eval_oracle_positions`): network `generation` searching
/// `run.eval_simulations` on the head of the game's standard set, Bagh Chal's by its tablebase, Connect Four's
/// by its solved set. None for other games, when it is off, or without a tablebase (said once).
pub fn oracle<G: Registered>(config: &RunConfig, dir: &RunDir, generation: u32) -> Result<Option<OracleSummary>> {
    let per_side = config.run.eval_oracle_positions;
    if per_side == 0 {
        return Ok(None);
    }
    match GameKind::of::<G>() {
        Some(GameKind::BaghChal) => baghchal_oracle::<G>(config, dir, generation),
        Some(GameKind::Connect4) => connect4_oracle::<G>(config, dir, generation),
        _ => Ok(None),
    }
}

fn baghchal_oracle<G: Registered>(config: &RunConfig, dir: &RunDir, generation: u32) -> Result<Option<OracleSummary>> {
    let per_side = config.run.eval_oracle_positions;
    let Some(table) = oracle_tablebase(&config.run.eval_oracle_tablebase)? else {
        return Ok(None);
    };
    let set = zero_arena::oracle::OracleSet::standard().head(per_side, per_side.div_ceil(5));
    if set.positions.is_empty() {
        return Ok(None);
    }
    let network = entrant::<G>(config, dir, generation)?;
    let score = zero_arena::oracle::score(&network, &set, &table, config.run.seed)?;
    Ok(Some(OracleSummary {
        positions: set.positions.len(),
        simulations: config.run.eval_simulations,
        accuracy: score.accuracy("").unwrap_or(0.0),
        goats: score.accuracy("goats"),
        tigers: score.accuracy("tigers"),
        placement: score.accuracy("placement"),
        stages: Default::default(),
    }))
}

fn connect4_oracle<G: Registered>(config: &RunConfig, dir: &RunDir, generation: u32) -> Result<Option<OracleSummary>> {
    use zero_arena::connect4_oracle::{SolvedSet, Stage, score};
    let set = SolvedSet::standard().head(config.run.eval_oracle_positions);
    if set.positions.is_empty() {
        return Ok(None);
    }
    let network = entrant::<G>(config, dir, generation)?;
    let scored = score(&network, &set, config.run.seed)?;
    let stages = Stage::ALL
        .iter()
        .filter_map(|stage| Some((stage.name().to_string(), scored.accuracy(stage.name())?)))
        .collect();
    Ok(Some(OracleSummary {
        positions: set.positions.len(),
        simulations: config.run.eval_simulations,
        accuracy: scored.accuracy("").unwrap_or(0.0),
        goats: None,
        tigers: None,
        placement: None,
        stages,
    }))
}

/// The tablebase of `run.eval_oracle_tablebase` (empty: the default file), opened once per process; none, said
/// once, where the default one is not solved yet.
fn oracle_tablebase(named: &str) -> Result<Option<std::sync::Arc<zero_tablebase::Table>>> {
    use std::sync::{Arc, Mutex};
    type Opened = Option<(String, Option<Arc<zero_tablebase::Table>>)>;
    static OPENED: Mutex<Opened> = Mutex::new(None);
    let mut opened = OPENED.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((held, table)) = opened.as_ref()
        && held == named
    {
        return Ok(table.clone());
    }
    let file = (!named.is_empty()).then(|| Path::new(named));
    let table = match zero_tablebase::open(file) {
        Ok(table) => Some(Arc::new(table)),
        Err(e @ (zero_tablebase::TablebaseError::NotSolved { .. } | zero_tablebase::TablebaseError::NoDefault)) => {
            tracing::info!("no check against perfect play: {e}");
            None
        }
        Err(e) => return Err(e).context("run.eval_oracle_tablebase"),
    };
    *opened = Some((named.to_string(), table.clone()));
    Ok(table)
}

/// The file of generation `generation`'s equal-time match: `gen-NNNN-msN.jsonl`, with every setting of the
/// player that is not the default after the time ([`PlaySearch::changed_settings`]:
/// `gen-0004-ms100-gumbel-puct.jsonl`, `gen-0004-ms100-score0.5-0.jsonl`), so that a run resumed with other
/// settings plays its later matches afresh rather than adding to games played with the old ones.
fn equal_time_file(generation: u32, run: &LoopConfig) -> String {
    let player = &run.equal_time;
    let mut stem = format!("gen-{generation:04}-ms{}", player.movetime_ms.unwrap_or(0));
    for (key, value) in player.changed_settings() {
        // The root by its name alone, as files written before the other settings had it.
        let part = if key == "root" { value } else { format!("{key}{value}") };
        stem.push_str(&format!("-{part}"));
    }
    format!("{}.jsonl", stem.replace('/', "-"))
}

/// Whether generation `generation` plays the equal-time match: every `run.eval_equal_time_every` generations,
/// and the run's last one.
fn equal_time_due(config: &RunConfig, generation: u32) -> bool {
    generation.is_multiple_of(config.run.eval_equal_time_every.max(1)) || generation == config.run.generations
}

/// Network `generation` as an arena player, under its run name.
pub(crate) fn entrant<G: Registered>(config: &RunConfig, dir: &RunDir, generation: u32) -> Result<Entrant<G>> {
    let search = PlaySearch {
        sims: config.run.eval_simulations,
        ..PlaySearch::DEFAULT
    };
    let network = Network::Checkpoint(dir.checkpoint(generation));
    Ok(Entrant::prepare(
        PlayerSpec::network(network, search).labelled(network_name(generation)),
    )?)
}

/// Every evaluation game of a run: the `.jsonl` files under `games/` and one level of folders below it
/// (runs made before pairings had files of their own kept one `gen-NNNN.jsonl` per generation; they count too).
pub fn read_pool(games_dir: &Path) -> Result<Vec<MatchRecord>> {
    std::fs::read_dir(games_dir).with_context(|| format!("reading {}", games_dir.display()))?;
    let mut records = Vec::new();
    for file in jsonl_files(games_dir) {
        records.extend(zero_arena::records::read_jsonl(&file)?);
    }
    Ok(records)
}

pub use zero_rundir::layout::jsonl_files;

/// A player's name as part of a file name: letters, digits, `.` and `-` kept, anything else `_`.
fn file_stem(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '.' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// FNV-1a of a path relative to the run directory: the same on every machine that shares the run.
fn stable_hash(path: &Path, root: &Path) -> u64 {
    let relative = path.strip_prefix(root).unwrap_or(path);
    relative
        .to_string_lossy()
        .bytes()
        .fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
            (h ^ b as u64).wrapping_mul(0x0100_0000_01b3)
        })
}

/// `player`'s games against `opponent` in `records`, from either side (the others' games are ignored).
pub fn match_score(records: &[MatchRecord], player: &str, opponent: &str) -> MatchScore {
    let against = |r: &&MatchRecord| r.first == opponent || r.second == opponent;
    MatchScore::of(
        opponent,
        records.iter().filter(against).filter_map(|r| r.score_of(player)),
    )
}

/// `player`'s games against `opponent` in `records` split by the side it played, the first player's first, each
/// named as the game names it.
pub fn side_scores<G: Game>(records: &[MatchRecord], player: &str, opponent: &str) -> Vec<SideScore> {
    [Side::First, Side::Second]
        .into_iter()
        .map(|side| {
            let played = |r: &&MatchRecord| match side {
                Side::First => r.first == player && r.second == opponent,
                Side::Second => r.second == player && r.first == opponent,
            };
            let games = records.iter().filter(played);
            SideScore {
                side: G::player_name(side).to_string(),
                result: MatchScore::of(opponent, games.filter_map(|r| r.score_of(player))),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(first: &str, second: &str, winner: Option<&str>) -> MatchRecord {
        MatchRecord {
            game: "bashni".into(),
            rules: Vec::new(),
            first: first.into(),
            second: second.into(),
            opening_index: 0,
            opening: Vec::new(),
            moves: Vec::new(),
            winner: winner.map(String::from),
            result: String::new(),
            reason: String::new(),
        }
    }

    #[test]
    fn a_match_score_counts_the_player_from_either_side_against_that_opponent_only() {
        let records = [
            record("gen3", "ab", Some("first")),
            record("ab", "gen3", Some("first")),
            record("gen3", "ab", None),
            record("ab", "gen3", Some("second")),
            record("other", "ab", Some("first")),
            record("gen3", "greedy", Some("second")),
        ];
        let r = match_score(&records, "gen3", "ab");
        assert_eq!((r.opponent.as_str(), r.wins, r.draws, r.losses), ("ab", 2, 1, 1));
    }

    #[test]
    fn side_scores_split_the_player_s_games_by_the_side_it_played_against_that_opponent_only() {
        let records = [
            record("gen3", "ab", Some("first")),
            record("gen3", "ab", Some("second")),
            record("gen3", "ab", Some("second")),
            record("ab", "gen3", Some("second")),
            record("ab", "gen3", None),
            record("gen3", "greedy", Some("first")),
            record("greedy", "gen3", Some("first")),
        ];
        let sides = side_scores::<zero_games::baghchal::BaghChal>(&records, "gen3", "ab");
        fn tally(s: &SideScore) -> (&str, usize, usize, usize) {
            (s.side.as_str(), s.result.wins, s.result.draws, s.result.losses)
        }
        assert_eq!(tally(&sides[0]), ("goats", 1, 0, 2));
        assert_eq!(tally(&sides[1]), ("tigers", 1, 1, 0));
        assert_eq!(sides[1].describe(), "as tigers 1-1-0");
    }

    #[test]
    fn file_stems_keep_names_readable_and_safe() {
        assert_eq!(file_stem("alphabeta:depth=4"), "alphabeta_depth_4");
        assert_eq!(file_stem("gen12"), "gen12");
        assert_eq!(file_stem("../x y"), ".._x_y");
    }

    #[test]
    fn the_equal_time_match_names_its_root_search_where_it_is_not_the_default() {
        use zero_search::{SideRoots, SideWeights};
        let root = |text: &str| text.parse::<SideRoots>().unwrap();
        let played = |ms: u64, root: SideRoots, score: SideWeights, minimax: f32| LoopConfig {
            equal_time: PlaySearch {
                movetime_ms: Some(ms),
                root,
                score_utility: score,
                minimax_weight: minimax,
                ..PlaySearch::DEFAULT
            },
            ..LoopConfig::default()
        };
        let plain = SideWeights::both(0.0);
        let file =
            |generation, ms, root, score, minimax| equal_time_file(generation, &played(ms, root, score, minimax));
        assert_eq!(file(4, 100, root("puct"), plain, 0.0), "gen-0004-ms100.jsonl");
        assert_eq!(file(4, 100, root("gumbel"), plain, 0.0), "gen-0004-ms100-gumbel.jsonl");
        assert_eq!(
            file(12, 20, root("gumbel/puct"), plain, 0.0),
            "gen-0012-ms20-gumbel-puct.jsonl"
        );
        let goats = "0.5/0".parse().unwrap();
        assert_eq!(
            file(4, 100, root("puct"), goats, 0.0),
            "gen-0004-ms100-score0.5-0.jsonl"
        );
        assert_eq!(
            file(4, 100, root("puct"), plain, 0.6),
            "gen-0004-ms100-minimax0.6.jsonl"
        );
        let fresh_tree = LoopConfig {
            equal_time: PlaySearch {
                movetime_ms: Some(100),
                c_puct: 2.0,
                tree_reuse: false,
                ..PlaySearch::DEFAULT
            },
            ..LoopConfig::default()
        };
        assert_eq!(equal_time_file(4, &fresh_tree), "gen-0004-ms100-reuseoff-cpuct2.jsonl");
        let config = RunConfig::parse(
            "game = \"baghchal\"\n[run.equal_time]\nroot = \"gumbel/puct\"\n",
            "t.toml",
        )
        .unwrap();
        assert_eq!(config.run.equal_time.root, root("gumbel/puct"));
        let err = RunConfig::parse("game = \"baghchal\"\n[run.equal_time]\nroot = \"gumble\"\n", "t.toml").unwrap_err();
        assert!(format!("{err:#}").contains("run.equal_time.root"), "{err:#}");
    }

    #[test]
    fn the_equal_time_match_is_played_every_n_generations_and_at_the_end() {
        let mut config = RunConfig::parse("game = \"baghchal\"\n[run]\ngenerations = 7\n", "t.toml").unwrap();
        let due = |c: &RunConfig| (1..=7).filter(|&g| equal_time_due(c, g)).collect::<Vec<_>>();
        assert_eq!(due(&config), vec![1, 2, 3, 4, 5, 6, 7]);
        config.run.eval_equal_time_every = 3;
        assert_eq!(due(&config), vec![3, 6, 7]);
        let err = RunConfig::parse("game = \"baghchal\"\n[run]\neval_equal_time_every = 0\n", "t.toml")
            .unwrap_err()
            .to_string();
        assert!(err.contains("run.eval_equal_time_every"), "{err}");
    }

    #[test]
    fn pairing_seeds_depend_on_the_pairing_not_on_where_the_run_lives() {
        let a = stable_hash(
            Path::new("/runs/a/games/gen-0001/vs-random.jsonl"),
            Path::new("/runs/a"),
        );
        let b = stable_hash(Path::new("/mnt/b/games/gen-0001/vs-random.jsonl"), Path::new("/mnt/b"));
        let c = stable_hash(
            Path::new("/runs/a/games/gen-0002/vs-random.jsonl"),
            Path::new("/runs/a"),
        );
        assert_eq!(a, b);
        assert_ne!(a, c);
    }
}

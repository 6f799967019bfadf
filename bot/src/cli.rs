//! The commands `bot`, `play` and `serve` of both binaries, `zero` and the libtorch-free `zero-play`: a
//! bundle's bot over the line protocol, in the terminal and in the browser; and how both print an error.

use crate::error::Result;
use crate::{Bot, Bundle, Runtime, play, protocol, serve};
use clap::Args;
use std::path::PathBuf;
use zero_games::{Encoding, Game, Heuristic, with_game};
use zero_search::config::{MAX_MOVE_TIME_MS, MAX_SIMULATIONS};
use zero_search::{Level, PlaySearch, SideRoots, SideWeights};

/// How strong the bot plays (its budget, or a named level), how it searches and what runs its network. Each
/// search setting left out is the bundle's: the one its run's headline match was measured with.
#[derive(Args, Debug, Clone)]
pub struct Strength {
    /// Simulations per bot decision, 1 to 1000000 (default: the bundle's budget).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_SIMULATIONS)))]
    pub sims: Option<u32>,
    /// Milliseconds per bot move, 1 to 600000 (default: the bundle's budget).
    #[arg(long, value_name = "MS", conflicts_with = "sims",
          value_parser = clap::value_parser!(u64).range(1..=u64::from(MAX_MOVE_TIME_MS)))]
    pub movetime: Option<u64>,
    /// A strength level: beginner, casual, club, expert, strong or max (simulations and a move-choice
    /// temperature, set per game; their measured Elo is in docs/protocol.md).
    #[arg(long, conflicts_with_all = ["sims", "movetime"], value_parser = Level::parse)]
    pub level: Option<Level>,
    /// Root search: puct or gumbel, or one for each side as FIRST/SECOND (gumbel/puct) (default: the bundle's).
    #[arg(long)]
    pub root: Option<SideRoots>,
    /// Weight of the game's score beside its value: W for both sides or FIRST/SECOND, each in [0, 1] (default:
    /// the bundle's).
    #[arg(long)]
    pub score: Option<SideWeights>,
    /// Weight of the game's heuristic minimaxed through the search, in [0, 1] (default: the bundle's).
    #[arg(long, value_parser = minimax_weight)]
    pub minimax: Option<f32>,
    /// What runs the network: torch (libtorch, f32), torch-bf16 (libtorch, bf16 on a CPU with native bf16) or
    /// onnx (tract, pure Rust, f32; the bundle's network.onnx). Default: torch where the build has it.
    #[arg(long)]
    pub runtime: Option<Runtime>,
}

/// A `--minimax` weight: a number in [0, 1].
pub fn minimax_weight(text: &str) -> std::result::Result<f32, MinimaxWeightError> {
    match text.parse::<f32>() {
        Ok(w) if (0.0..=1.0).contains(&w) => Ok(w),
        _ => Err(MinimaxWeightError(text.to_string())),
    }
}

/// A `--minimax` value that is not a weight from 0 to 1.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("expected a weight from 0 to 1, got {0:?}")]
pub struct MinimaxWeightError(String);

impl Strength {
    /// The bundle's search with what the user changed: a budget of simulations replaces a time per move.
    fn search(&self, bundle: &Bundle) -> PlaySearch {
        let mut search = bundle.search(self.sims);
        search.movetime_ms = self.movetime.or(search.movetime_ms);
        search.root = self.root.unwrap_or(search.root);
        search.score_utility = self.score.unwrap_or(search.score_utility);
        search.minimax_weight = self.minimax.unwrap_or(search.minimax_weight);
        search
    }

    /// The bundle's bot at this strength.
    fn bot<G: Encoding + Heuristic>(&self, bundle: &Bundle) -> Result<Bot<G>> {
        let runtime = self.runtime.unwrap_or(Runtime::DEFAULT);
        let mut bot = Bot::<G>::from_bundle_on(bundle, &self.search(bundle), runtime)?;
        if let Some(level) = self.level {
            bot.set_level(level);
        }
        Ok(bot)
    }
}

#[derive(Args, Debug, Clone)]
pub struct BotArgs {
    /// The bundle directory (from `zero export`).
    pub bundle: PathBuf,
    #[command(flatten)]
    pub strength: Strength,
    /// Bagh Chal: show perfect play from this tablebase (`zero solve baghchal`) with the analysis lines
    /// (`info tablebase ...`); the bot never moves by it.
    #[arg(long, value_name = "FILE")]
    pub tablebase: Option<PathBuf>,
}

/// `zero bot`: serves the line protocol on stdin/stdout.
pub fn run_bot(args: BotArgs) -> Result<()> {
    let bundle = Bundle::open(&args.bundle)?;
    with_game!(bundle.manifest.game, G => {
        let mut bot = args.strength.bot::<G>(&bundle)?;
        bot.tablebase = args.tablebase.as_deref().map(|path| crate::perfect::open(path, G::NAME)).transpose()?;
        protocol::serve(&mut bot, std::io::BufReader::new(std::io::stdin()), std::io::stdout().lock())
    })
}

#[derive(Args, Debug, Clone)]
pub struct PlayArgs {
    /// The bundle directory (from `zero export`).
    pub bundle: PathBuf,
    /// Whether you move first or second.
    #[arg(long, default_value = "first", value_parser = ["first", "second"])]
    pub human: String,
    #[command(flatten)]
    pub strength: Strength,
}

/// `zero play`: a person against the bot in the terminal.
pub fn run_play(args: PlayArgs) -> Result<()> {
    let bundle = Bundle::open(&args.bundle)?;
    let human_first = args.human == "first";
    with_game!(bundle.manifest.game, G => {
        let mut bot = args.strength.bot::<G>(&bundle)?;
        play::play(&mut bot, human_first, std::io::stdin().lock(), std::io::stdout().lock())
    })
}

#[derive(Args, Debug, Clone)]
pub struct ServeArgs {
    /// The bundle directory (from `zero export`).
    pub bundle: PathBuf,
    /// Port to listen on (0: any free port; the address is printed).
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// Address to listen on; the default keeps the page to this machine.
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
    #[command(flatten)]
    pub strength: Strength,
    /// Bagh Chal: show perfect play from this tablebase (`zero solve baghchal`) with the page's analysis; the
    /// bot never moves by it.
    #[arg(long, value_name = "FILE")]
    pub tablebase: Option<PathBuf>,
}

/// `zero serve`: the web page and its JSON API.
pub fn run_serve(args: ServeArgs) -> Result<()> {
    let bundle = Bundle::open(&args.bundle)?;
    with_game!(bundle.manifest.game, G => {
        let mut bot = args.strength.bot::<G>(&bundle)?;
        bot.tablebase = args.tablebase.as_deref().map(|path| crate::perfect::open(path, G::NAME)).transpose()?;
        serve::run(bot, &bundle, &args.host, args.port)
    })
}

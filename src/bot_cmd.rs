//! `zero bot`, `zero play`, `zero serve`: a bundle's bot over the line protocol, in the terminal and in the
//! browser (the `zero-bot` crate does the work).

use anyhow::Result;
use clap::Args;
use std::path::PathBuf;
use zero_bot::{Bot, Bundle, play, protocol, serve};
use zero_games::{Encoding, with_game};
use zero_search::Level;

/// How strong the bot plays: its simulations, or a named level.
#[derive(Args, Debug, Clone)]
pub struct Strength {
    /// Simulations per bot decision (default: the bundle's).
    #[arg(long)]
    pub sims: Option<u32>,
    /// A strength level: beginner, casual, club, strong or max (simulations and a move-choice temperature;
    /// their measured Elo is in docs/protocol.md).
    #[arg(long, conflicts_with = "sims", value_parser = Level::parse)]
    pub level: Option<Level>,
}

impl Strength {
    /// The bundle's bot at this strength.
    fn bot<G: Encoding>(&self, bundle: &Bundle) -> Result<Bot<G>> {
        let mut bot = Bot::<G>::from_bundle(bundle, self.sims)?;
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
}

/// `zero bot`: serves the line protocol on stdin/stdout.
pub fn run_bot(args: BotArgs) -> Result<()> {
    let bundle = Bundle::open(&args.bundle)?;
    with_game!(bundle.manifest.game, G => {
        let mut bot = args.strength.bot::<G>(&bundle)?;
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
}

/// `zero serve`: the web page and its JSON API.
pub fn run_serve(args: ServeArgs) -> Result<()> {
    let bundle = Bundle::open(&args.bundle)?;
    with_game!(bundle.manifest.game, G => serve::run(args.strength.bot::<G>(&bundle)?, &bundle, &args.host, args.port))
}

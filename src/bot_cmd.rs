//! `zero bot`, `zero play`, `zero serve`: a bundle's bot over the line protocol, in the terminal and in the
//! browser (the `zero-bot` crate does the work).

use anyhow::Result;
use clap::Args;
use std::path::PathBuf;
use zero_bot::{Bot, Bundle, play, protocol, serve};
use zero_games::with_game;

#[derive(Args, Debug, Clone)]
pub struct BotArgs {
    /// The bundle directory (from `zero export`).
    pub bundle: PathBuf,
    /// Simulations per move when `go` names none (default: the bundle's).
    #[arg(long)]
    pub sims: Option<u32>,
}

/// `zero bot`: serves the line protocol on stdin/stdout.
pub fn run_bot(args: BotArgs) -> Result<()> {
    let bundle = Bundle::open(&args.bundle)?;
    with_game!(bundle.manifest.game, G => {
        let mut bot = Bot::<G>::from_bundle(&bundle, args.sims)?;
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
    /// Simulations per bot decision (default: the bundle's).
    #[arg(long)]
    pub sims: Option<u32>,
}

/// `zero play`: a person against the bot in the terminal.
pub fn run_play(args: PlayArgs) -> Result<()> {
    let bundle = Bundle::open(&args.bundle)?;
    let human_first = args.human == "first";
    with_game!(bundle.manifest.game, G => {
        let mut bot = Bot::<G>::from_bundle(&bundle, args.sims)?;
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
    /// Simulations per bot decision (default: the bundle's).
    #[arg(long)]
    pub sims: Option<u32>,
}

/// `zero serve`: the web page and its JSON API.
pub fn run_serve(args: ServeArgs) -> Result<()> {
    let bundle = Bundle::open(&args.bundle)?;
    with_game!(bundle.manifest.game, G => serve::run::<G>(&bundle, args.sims, &args.host, args.port))
}

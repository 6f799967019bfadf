//! Playing with a bundle: the engine that thinks ([`engine`]), the line protocol for programs (`zero bot`,
//! [`protocol`]) and the terminal game for people (`zero play`, [`play`]).

pub mod engine;
mod http;
pub mod play;
pub mod protocol;
mod serve;

use crate::bundle::Bundle;
use anyhow::Result;
use clap::Args;
use engine::Engine;
use std::path::PathBuf;
use zero_games::Game;
use zero_games::registry::{GameVisitor, dispatch};

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
    struct Bot(Bundle, Option<u32>);
    impl GameVisitor for Bot {
        type Output = Result<()>;
        fn visit<G: Game>(self) -> Result<()> {
            let mut engine = Engine::<G>::from_bundle(&self.0, self.1)?;
            let stdin = std::io::stdin();
            protocol::serve(&mut engine, stdin.lock(), std::io::stdout().lock())
        }
    }
    let game = bundle.manifest.game.clone();
    dispatch(&game, Bot(bundle, args.sims))?
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
    struct Play(Bundle, PlayArgs);
    impl GameVisitor for Play {
        type Output = Result<()>;
        fn visit<G: Game>(self) -> Result<()> {
            let mut engine = Engine::<G>::from_bundle(&self.0, self.1.sims)?;
            let stdin = std::io::stdin();
            play::play(
                &mut engine,
                self.1.human == "first",
                stdin.lock(),
                std::io::stdout().lock(),
            )
        }
    }
    let game = bundle.manifest.game.clone();
    dispatch(&game, Play(bundle, args))?
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
    struct Serve(Bundle, ServeArgs);
    impl GameVisitor for Serve {
        type Output = Result<()>;
        fn visit<G: Game>(self) -> Result<()> {
            serve::run::<G>(&self.0, self.1.sims, &self.1.host, self.1.port)
        }
    }
    let game = bundle.manifest.game.clone();
    dispatch(&game, Serve(bundle, args))?
}

//! `zero perft`, `zero moves`, `zero show`: the rules cores on the command line, for every registered game.

use anyhow::{Context, Result};
use clap::Args;
use zero_games::{Game, GameKind, perft_divide, with_game};

/// The rules a command is played under: `--variant` and `--set` (every command that takes rules on its line).
#[derive(Args, Debug, Clone)]
pub struct RulesArgs {
    /// A named variant or preset of the rules.
    #[arg(long)]
    pub variant: Option<String>,
    /// A rule option as key=value (repeatable), applied after the variant.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,
}

impl RulesArgs {
    /// The rule set of game `G` these arguments name.
    pub fn rules<G: Game>(&self) -> Result<G::Rules> {
        G::parse_rules(self.variant.as_deref(), &self.set).with_context(|| format!("rules of {}", G::NAME))
    }
}

/// A game, its rules and a position.
#[derive(Args, Debug, Clone)]
pub struct PositionArgs {
    /// The game.
    #[arg(value_parser = crate::game_arg::parser())]
    pub game: GameKind,
    #[command(flatten)]
    pub rules: RulesArgs,
    /// The position in the game's notation; `start` is the initial position.
    #[arg(long, default_value = "start")]
    pub position: String,
}

impl PositionArgs {
    /// The game in the named position, under the named rules.
    pub fn load<G: Game>(&self) -> Result<G> {
        let rules = self.rules.rules::<G>()?;
        G::from_position(&rules, &self.position).with_context(|| format!("--position for {}", G::NAME))
    }
}

#[derive(Args, Debug, Clone)]
pub struct PerftArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    /// Depth in whole moves.
    #[arg(long)]
    pub depth: u32,
    /// First print each root move with its count.
    #[arg(long)]
    pub divide: bool,
}

pub fn perft(args: PerftArgs) -> Result<()> {
    with_game!(args.position.game, G => perft_of::<G>(&args))
}

fn perft_of<G: Game>(args: &PerftArgs) -> Result<()> {
    // Perft counts the bare move tree: the draw rules never cut it short.
    let game: G = args.position.load()?;
    let rules = G::without_draw_rules(game.rules());
    let game = G::from_position(&rules, &args.position.position)?;
    if args.divide {
        let mut split = perft_divide(&game, args.depth);
        split.sort();
        let total: u64 = split.iter().map(|(_, n)| n).sum();
        for (mv, n) in &split {
            println!("{mv} {n}");
        }
        println!("{total}");
    } else {
        println!("{}", zero_games::perft(&game, args.depth));
    }
    Ok(())
}

pub fn moves(args: PositionArgs) -> Result<()> {
    with_game!(args.game, G => moves_of::<G>(&args))
}

fn moves_of<G: Game>(args: &PositionArgs) -> Result<()> {
    let game: G = args.load()?;
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let mut lines: Vec<String> = moves.iter().map(|m| game.format_move(m)).collect();
    lines.sort();
    for line in lines {
        println!("{line}");
    }
    Ok(())
}

pub fn show(args: PositionArgs) -> Result<()> {
    with_game!(args.game, G => show_of::<G>(&args))
}

fn show_of<G: Game>(args: &PositionArgs) -> Result<()> {
    let game: G = args.load()?;
    print!("{}", game.render());
    println!("position: {}", game.position());
    match game.outcome() {
        Some(outcome) => match outcome.winner {
            Some(w) => println!("game over: {} wins ({})", G::player_name(w), outcome.reason),
            None => println!("game over: draw ({})", outcome.reason),
        },
        None => println!("to move: {}", G::player_name(game.to_move())),
    }
    Ok(())
}

#[derive(Args, Debug, Clone)]
pub struct ActionsArgs {
    /// The game.
    #[arg(value_parser = crate::game_arg::parser())]
    pub game: GameKind,
    /// One JSON array of {"action", "meaning"} objects instead of tab-separated lines.
    #[arg(long)]
    pub json: bool,
}

/// `zero actions GAME`: every index of the network's policy and the move it stands for, in the side to move's
/// view (docs/encoding.md says how a position's actions map to these indices).
pub fn actions(args: ActionsArgs) -> Result<()> {
    with_game!(args.game, G => actions_of::<G>(args.json))
}

fn actions_of<G: Game>(json: bool) -> Result<()> {
    let meanings = (0..G::ACTION_SPACE).map(|a| {
        let action = zero_games::Action::try_from(a).expect("an action space fits its action type");
        (a, G::describe_action(action))
    });
    if json {
        let rows: Vec<_> = meanings
            .map(|(a, m)| serde_json::json!({"action": a, "meaning": m}))
            .collect();
        println!("{}", serde_json::Value::Array(rows));
    } else {
        println!("action\tmeaning");
        for (a, meaning) in meanings {
            println!("{a}\t{meaning}");
        }
    }
    Ok(())
}

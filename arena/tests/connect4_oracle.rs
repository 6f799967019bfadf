//! Connect Four's perfect-play yardstick: the committed solved set is well formed and its solutions are the
//! solver's, and scoring counts a player's moves against them.

use zero_arena::Entrant;
use zero_arena::connect4_oracle::{SolvedPosition, SolvedSet, Stage, score, to_position};
use zero_games::Game;
use zero_games::connect4::{Connect4, Connect4Rules};
use zero_solver::Solver;

fn game(moves: &str) -> Connect4 {
    Connect4::from_position(&Connect4Rules, moves).unwrap()
}

#[test]
fn the_standard_set_holds_every_stage_and_its_solutions_are_the_solvers() {
    let set = SolvedSet::standard();
    for stage in Stage::ALL {
        let n = set.positions.iter().filter(|p| p.stage == stage).count();
        assert!(n >= 500, "{} positions of stage {}", n, stage.name());
    }
    let head = set.head(10);
    assert_eq!(head.positions.len(), 30);
    // Re-solve a sample of the quick stages: the committed columns must be the solver's.
    let mut solver = Solver::new();
    let sample = set.positions.iter().filter(|p| p.stage != Stage::Begin).step_by(40);
    let mut checked = 0;
    for p in sample {
        let again = SolvedPosition::solve(&mut solver, &game(&p.moves), p.moves.clone(), p.source.clone());
        assert_eq!(again.as_ref(), Some(p), "{}", p.moves);
        checked += 1;
    }
    assert!(checked >= 40, "{checked}");
}

#[test]
fn a_set_round_trips_and_bad_lines_are_refused_naming_the_line() {
    let mut solver = Solver::new();
    // x to move can win at once in column 4 (three x on the bottom row, the fourth cell open).
    let win = SolvedPosition::solve(&mut solver, &game("1122334"), "112233".into(), "hand".into());
    assert!(win.is_none(), "a position after a win is not a position to score");
    let win = SolvedPosition::solve(&mut solver, &game("112233"), "112233".into(), "hand".into()).unwrap();
    assert_eq!((win.value, win.keeping().collect::<Vec<_>>()), ('W', vec![3]));
    let set = SolvedSet { positions: vec![win] };
    let text = set.to_text("a comment");
    assert!(text.starts_with("# a comment\n112233\t4\tbegin\twin\t"), "{text}");
    assert_eq!(SolvedSet::parse(&text).unwrap(), set);
    for (line, why) in [
        ("112233\t4\tbegin\twin\tLLLWLL\thand", "7 characters"),
        ("112233\t5\tbegin\twin\tLLLWLLL\thand", "do not match"),
        ("112233\t4\tend\twin\tLLLWLLL\thand", "not the end stage"),
        ("112233\t4\tbegin\tloss\tLLLWLLL\thand", "win or draw"),
        ("1122339\t4\tbegin\twin\tLLLWLLL\thand", "columns are numbered 1-7"),
        ("112233\t4\tbegin\twin", "6 tab-separated fields"),
    ] {
        let err = SolvedSet::parse(&format!("# c\n{line}\n")).unwrap_err().to_string();
        assert!(err.contains("line 2") && err.contains(why), "{line}: {err}");
    }
}

#[test]
fn scoring_counts_moves_that_keep_the_value() {
    let mut solver = Solver::new();
    let mut positions = Vec::new();
    // Win at once (x, bottom row), and block the opponent's three (o, column a).
    for moves in ["112233", "12131"] {
        let p = SolvedPosition::solve(&mut solver, &game(moves), moves.into(), "hand".into());
        let p = p.unwrap_or_else(|| panic!("{moves} has no move that changes its value"));
        assert_eq!(to_position(&game(moves)).unwrap().moves_played(), moves.len());
        positions.push(p);
    }
    let set = SolvedSet { positions };
    // Two plies of alpha-beta see a win in one and the block of a win in one.
    assert_eq!(set.positions[1].keeping().collect::<Vec<_>>(), [0]);
    let sharp = score(&Entrant::<Connect4>::parse("alphabeta:depth=2").unwrap(), &set, 1).unwrap();
    assert_eq!(sharp.total("begin"), (2, 2), "{sharp:?}");
    assert!(sharp.mistakes.is_empty());
    let random = score(&Entrant::<Connect4>::parse("random").unwrap(), &set, 1).unwrap();
    assert_eq!(random.total("").0, 2);
    assert_eq!(random.mistakes.len(), 2 - random.total("").1);
    for m in &random.mistakes {
        let p = set.positions.iter().find(|p| p.moves == m.position).unwrap();
        let column = (m.played.as_bytes()[0] - b'a') as usize;
        assert_ne!(p.columns[column], p.value, "{m:?}");
    }
}

//! The whole sliding phase solved into a file (minutes on two cores, once for all the workspace's tests) and
//! checked:
//! - the class count is 88,260,972, and every kept entry agrees with its children (which, with the distances,
//!   makes the table the game's unique solution: docs/tablebase.md);
//! - positions whose value is seen by hand: an immediate fifth capture, tigers trapped in one move, tigers
//!   with no move, the last placement that traps them;
//! - positions decided within four plies agree with a plain exhaustive search of the rules core, and every
//!   position's eight symmetric images share its value;
//! - layer 4 (four goats captured) solved by the retrograde solver agrees entry by entry with the rules core's
//!   own moves on a sample of 100,000 positions (the second, independent way: the rules core's move generator
//!   and a forward look at the children);
//! - a truncated, foreign, other-rules, damaged or partial file is refused with its name and the reason.

use rand::{RngExt, SeedableRng};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use zero_games::Game;
use zero_games::baghchal::board::{SYMMETRIES, map_points};
use zero_games::baghchal::{BaghChal, BaghChalMove};
use zero_tablebase::index::{LAYERS, LayerIndex, Slide};
use zero_tablebase::probe::{NoAnswer, slide_of};
use zero_tablebase::solve::{solve_to_file, solved_at};
use zero_tablebase::{Table, TablebaseError, Value};

struct Solved {
    path: PathBuf,
    table: Table,
}

/// The tablebase every test of the workspace shares (`target/tmp/tablebase/baghchal.tb`), solved there by the
/// first test that needs it (minutes on two cores) and opened by the others.
fn solved() -> &'static Solved {
    static SOLVED: OnceLock<Solved> = OnceLock::new();
    SOLVED.get_or_init(|| {
        let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join("tablebase/baghchal.tb");
        let table = solved_at(&path).expect("the solve");
        Solved { path, table }
    })
}

fn threefold() -> zero_games::baghchal::BaghChalRules {
    BaghChal::parse_rules(None, &["repetition=threefold-draw".into(), "max_plies=0".into()]).unwrap()
}

fn position(text: &str) -> BaghChal {
    BaghChal::from_position(&threefold(), text).unwrap()
}

#[test]
fn the_classes_number_88_260_972_and_every_entry_agrees_with_its_children() {
    let Solved { path, table, .. } = solved();
    let (_, header) = Table::open(path).unwrap();
    let total: u64 = header
        .layers
        .iter()
        .flat_map(|l| l.classes.iter())
        .map(|c| c.positions)
        .sum();
    assert_eq!(total, 88_260_972);
    let counted: Vec<_> = table.counts().into_iter().map(|(_, c)| c).collect();
    let in_header: Vec<_> = header.layers.iter().map(|l| l.classes).collect();
    assert_eq!(counted, in_header);
    let (inconsistent, examples) = table.inconsistencies(5);
    assert_eq!(inconsistent, 0, "{examples:?}");
}

#[test]
fn values_seen_by_hand() {
    let table = &solved().table;
    // The tiger on a1 jumps b1 to the empty c1: the fifth capture.
    let fifth = position("TGGGT/GGGGG/G...G/GGGG./TG.GT t 0 4");
    assert_eq!(table.value(&slide_of(&fifth)), Value::Win(1));
    // Tigers in the corners, c1 empty: only c2-c1 leaves the tigers no move (c2 has no diagonals and its
    // neighbours are goats; no corner jumps to c2); b1-c1, d1-c1, b2-c1 and d2-c1 free a point beside a tiger.
    let trap = position("TGGGT/GGGGG/GGGGG/GGGGG/TG.GT g 0 0");
    let probe = table.probe(&trap).unwrap();
    assert_eq!(probe.value, Value::Win(1));
    assert_eq!(probe.best_moves(), [BaghChalMove::Step { from: 7, to: 2 }]);
    // After it the tigers have no move: lost at once.
    let trapped = position("TGGGT/GGGGG/GGGGG/GG.GG/TGGGT t 0 0");
    let mut moves = Vec::new();
    trapped.legal_moves(&mut moves);
    assert!(moves.is_empty());
    assert_eq!(table.value(&slide_of(&trapped)), Value::Loss(0));
    // The same trap closed by the last placement (the ply-37 trap): the exact placement search sees it.
    let placing = position("TGGGT/GGGGG/GGGGG/GG.GG/TG.GT g 1 0");
    let probe = table.probe(&placing).unwrap();
    assert_eq!(probe.value, Value::Win(1));
    assert_eq!(probe.best_moves(), [BaghChalMove::Place(2)]);
    // The start has every goat in hand: no answer, and the reason.
    let start = BaghChal::start(&threefold());
    assert_eq!(
        table.probe(&start).unwrap_err(),
        NoAnswer::Placement { in_hand: 20, limit: 4 }
    );
}

/// The exact value of `game` if it is decided within `plies` plies under best play, else none.
fn within(game: &BaghChal, plies: u16) -> Option<Value> {
    if game.outcome().is_some() {
        // Within four plies every end in the sliding phase is the side to move's loss (a third occurrence of a
        // position needs eight).
        return Some(Value::Loss(0));
    }
    if plies == 0 {
        return None;
    }
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let children: Vec<Option<Value>> = moves
        .iter()
        .map(|mv| {
            let mut child = game.clone();
            child.play(mv);
            within(&child, plies - 1)
        })
        .collect();
    let fastest_win = children
        .iter()
        .filter_map(|c| match c {
            Some(Value::Loss(k)) => Some(k + 1),
            _ => None,
        })
        .min();
    match fastest_win {
        Some(w) => Some(Value::Win(w)),
        None if children.iter().all(|c| matches!(c, Some(Value::Win(_)))) => {
            Some(Value::from_children(children.into_iter().flatten()))
        }
        None => None,
    }
}

#[test]
fn short_wins_and_losses_match_an_exhaustive_search_and_images_agree() {
    let table = &solved().table;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
    let mut decided = 0;
    for c in 0..LAYERS {
        let index = LayerIndex::new(c);
        for _ in 0..600 {
            let slide = index.slide(rng.random_range(0..index.positions()));
            let value = table.value(&slide);
            for sym in 0..SYMMETRIES {
                let image = Slide {
                    tigers: map_points(sym, slide.tigers),
                    empty: map_points(sym, slide.empty),
                    ..slide
                };
                assert_eq!(table.value(&image), value, "{} under symmetry {sym}", slide.notation());
            }
            let searched = within(&position(&slide.notation()), 4);
            let short = match value {
                Value::Win(d) | Value::Loss(d) if d <= 4 => Some(value),
                _ => None,
            };
            assert_eq!(searched, short, "{}", slide.notation());
            decided += short.is_some() as usize;
        }
    }
    // The sample holds decided positions as well as undecided ones.
    assert!(decided > 300 && decided < 2700, "{decided}");
}

#[test]
fn layer_four_agrees_with_the_rules_cores_own_moves() {
    let table = &solved().table;
    let index = LayerIndex::new(4);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(4);
    for _ in 0..100_000 {
        let slide = index.slide(rng.random_range(0..index.positions()));
        let game = position(&slide.notation());
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        let children = moves.iter().map(|mv| {
            let mut child = game.clone();
            child.play(mv);
            match child.outcome() {
                Some(_) => Value::Loss(0),
                None => table.value(&slide_of(&child)),
            }
        });
        assert_eq!(
            table.value(&slide),
            Value::from_children(children),
            "{}",
            slide.notation()
        );
    }
}

fn refusal(path: &Path) -> TablebaseError {
    Table::open(path).map(|_| ()).expect_err("a bad file is refused")
}

/// Writes `bytes` as a file in `dir` and returns its path.
fn file(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

#[test]
fn bad_files_are_refused_with_their_name_and_reason() {
    let Solved { path, .. } = solved();
    let bytes = std::fs::read(path).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();

    let cut = file(d, "cut.tb", &bytes[..bytes.len() - 1000]);
    let err = refusal(&cut);
    assert!(matches!(err, TablebaseError::WrongSize { .. }), "{err}");
    assert!(
        err.to_string().contains("cut.tb") && err.to_string().contains("truncated"),
        "{err}"
    );

    let foreign = file(d, "foreign.tb", b"PAR1 this is a parquet file, not a tablebase");
    assert!(matches!(refusal(&foreign), TablebaseError::Foreign { .. }));
    let empty = file(d, "empty.tb", b"");
    assert!(matches!(refusal(&empty), TablebaseError::Foreign { .. }));

    // The same file with its header saying another rule set.
    let header_len = u64::from_le_bytes(bytes[16..24].try_into().unwrap()) as usize;
    let mut header: serde_json::Value = serde_json::from_slice(&bytes[24..24 + header_len]).unwrap();
    header["rules"] = "repetition=ban".into();
    let json = serde_json::to_vec_pretty(&header).unwrap();
    let mut other = bytes[..16].to_vec();
    other.extend((json.len() as u64).to_le_bytes());
    other.extend(&json);
    other.extend(&bytes[24 + header_len..]);
    let other = file(d, "ban.tb", &other);
    let err = refusal(&other);
    assert!(matches!(err, TablebaseError::OtherRules { .. }), "{err}");
    assert!(err.to_string().contains("repetition=ban"), "{err}");

    let mut damaged = bytes.clone();
    let last = damaged.len() - 7;
    damaged[last] ^= 0x01;
    let damaged = file(d, "damaged.tb", &damaged);
    assert!(matches!(refusal(&damaged), TablebaseError::Checksum { .. }));

    let missing = d.join("missing.tb");
    assert!(matches!(refusal(&missing), TablebaseError::Io { .. }));
    assert!(matches!(
        refusal(d),
        TablebaseError::NotAFile { .. } | TablebaseError::Io { .. }
    ));
}

#[test]
fn a_partial_file_is_refused_as_a_tablebase_and_resumed_by_a_solve() {
    let Solved { table, .. } = solved();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("resumed.tb");
    // What an interrupted solve leaves: layers 4 down to 1.
    let mut partial = table.clone();
    partial.layers[0] = None;
    let partial_path = zero_tablebase::solve::partial_path(&out);
    partial.write(&partial_path).unwrap();
    assert!(matches!(refusal(&partial_path), TablebaseError::Incomplete { .. }));
    let mut solved_layers = Vec::new();
    let header = solve_to_file(&out, &mut |event| {
        if let zero_tablebase::solve::SolveEvent::Layer { captured, .. } = event {
            solved_layers.push(captured)
        }
    })
    .unwrap();
    assert_eq!(solved_layers, [0], "only the missing layer is solved");
    assert!(!partial_path.exists());
    let (resumed, _) = Table::open(&out).unwrap();
    assert_eq!(
        resumed.layers[0].as_ref().unwrap().values,
        table.layers[0].as_ref().unwrap().values
    );
    assert_eq!(header.layers.len(), LAYERS as usize);
}

//! Tours' network input: shape and range, what the planes tell apart, the view rule (Black sees the board
//! turned by 180 degrees, and the policy indices follow), and random playouts of both variants.

use zero_games::checks::CheckRng;
use zero_games::tours::{Tours, ToursRules};
use zero_games::{Action, ActionList, Encoding, Game, Side};

const AREA: usize = 64;
const OWN: usize = 0;
const OPPONENT: usize = 8;
const EMPTY: usize = 16;
const PENDING_TOWER: usize = 17;
const PENDING_RAY: usize = 18;
const NO_CAPTURE: usize = 19;
const PLIES: usize = 20;
const OWN_PAWNS: usize = 21;
const OPPONENT_PAWNS: usize = 22;
const COMPOUND: usize = 23;
const ONES: usize = 24;

fn rules(variant: Option<&str>) -> ToursRules {
    Tours::parse_rules(variant, &[]).expect("valid rules")
}

fn game(position: &str) -> Tours {
    Tours::from_position(&ToursRules::default(), position).unwrap_or_else(|e| panic!("{e}"))
}

fn compound(position: &str) -> Tours {
    Tours::from_position(&rules(Some("compound")), position).unwrap_or_else(|e| panic!("{e}"))
}

fn buffer() -> Vec<f32> {
    vec![f32::NAN; Tours::INPUT_PLANES * Tours::BOARD_HEIGHT * Tours::BOARD_WIDTH]
}

/// The planes, written over a buffer of NaNs so that any value `encode` forgets shows.
fn planes(game: &Tours) -> Vec<f32> {
    let mut planes = buffer();
    game.encode(&mut planes);
    planes
}

/// The planes of `game` shown untransformed (symmetry 0), whoever is to move.
fn planes_view(game: &Tours, sym: usize) -> Vec<f32> {
    let mut planes = buffer();
    game.encode_view(sym, &mut planes);
    planes
}

fn at(planes: &[f32], plane: usize, square: usize) -> f32 {
    planes[plane * AREA + square]
}

/// Every value written, finite, in [0, 1]; exactly one of the 17 occupancy planes per square; constant planes
/// constant; counts right.
fn check_planes(game: &Tours, planes: &[f32]) {
    let here = game.position();
    assert_eq!(planes.len(), Tours::INPUT_PLANES * AREA);
    assert!(
        planes.iter().all(|v| v.is_finite() && (0.0..=1.0).contains(v)),
        "{here}"
    );
    for s in 0..AREA {
        let sum: f32 = (OWN..=EMPTY).map(|i| at(planes, i, s)).sum();
        assert_eq!(sum, 1.0, "{here}: square {s}");
    }
    for i in NO_CAPTURE..Tours::INPUT_PLANES {
        assert!(
            (0..AREA).all(|s| at(planes, i, s) == at(planes, i, 0)),
            "{here}: plane {i} not constant"
        );
    }
    let pawns = |first: usize| -> f32 {
        (0..8)
            .map(|h| (h + 1) as f32 * (0..AREA).map(|s| at(planes, first + h, s)).sum::<f32>())
            .sum()
    };
    assert_eq!(pawns(OWN), game.pawns(game.to_move()) as f32);
    assert_eq!(pawns(OPPONENT), game.pawns(game.to_move().other()) as f32);
    assert_eq!(at(planes, OWN_PAWNS, 0), game.pawns(game.to_move()) as f32 / 15.0);
    assert_eq!(at(planes, ONES, 0), 1.0);
    let tower: f32 = (0..AREA).map(|s| at(planes, PENDING_TOWER, s)).sum();
    assert_eq!(
        tower,
        if game.pending_collapse().is_some() { 1.0 } else { 0.0 },
        "{here}"
    );
}

fn differ(a: &Tours, b: &Tours) {
    assert_ne!(planes(a), planes(b), "{} vs {}", a.position(), b.position());
}

#[test]
fn shape_range_and_determinism() {
    assert_eq!(
        (Tours::INPUT_PLANES, Tours::BOARD_HEIGHT, Tours::BOARD_WIDTH),
        (25, 8, 8)
    );
    assert_eq!(Tours::ENCODING_VERSION, 1);
    let start = Tours::start(&ToursRules::default());
    let first = planes(&start);
    check_planes(&start, &first);
    let mut again = vec![0.25; first.len()];
    start.encode(&mut again);
    assert_eq!(first, again);
    // White's pawns from a1 (row 0 = rank 1), Black's from h8.
    assert_eq!(at(&first, OWN, 0), 1.0);
    assert_eq!(at(&first, OPPONENT, 63), 1.0);
    assert_eq!((0..AREA).map(|s| at(&first, EMPTY, s)).sum::<f32>(), 34.0);
    assert_eq!(
        [NO_CAPTURE, PLIES, OWN_PAWNS, OPPONENT_PAWNS, COMPOUND].map(|i| at(&first, i, 0)),
        [0.0, 0.0, 1.0, 1.0, 0.0]
    );
}

#[test]
fn black_sees_the_board_turned() {
    // The start is symmetric under the half turn with the colours swapped: Black to move sees White's view.
    let white = Tours::start(&ToursRules::default());
    let black = game(&white.position().replacen('w', "b", 1));
    assert_eq!(black.to_move(), Side::Second);
    assert_eq!(white.canonical_symmetry(), 0);
    assert_eq!(black.canonical_symmetry(), 2);
    assert_eq!(planes(&white), planes(&black));
    // One black pawn on h8 and a white tower on a1: Black sees its pawn on a1 and the tower on h8.
    let g = game("b a1:www h8:b");
    let p = planes(&g);
    assert_eq!([at(&p, OWN, 0), at(&p, OPPONENT + 2, 63)], [1.0, 1.0]);
}

#[test]
fn rule_relevant_differences_show() {
    // Heights, owner, an empty square.
    differ(&game("w a1:ww h8:b"), &game("w a1:www h8:b"));
    differ(&game("w a1:w c3:w h8:b"), &game("w a1:w c3:b h8:b"));
    differ(&game("w a1:w c3:w h8:b"), &game("w a1:w h8:b"));
    // The side to move (the view turns, and own/opponent swap).
    differ(&game("w a1:w b2:ww h8:b"), &game("b a1:w b2:ww h8:b"));
    // The compound variant, mid-turn or not, and the forbidden direction.
    let mid = compound("w b1:b a2:ww b2:b h8:b >a2:s");
    differ(&compound("w b1:b a2:ww b2:b h8:b"), &mid);
    differ(&game("w b1:b a2:ww b2:b h8:b"), &compound("w b1:b a2:ww b2:b h8:b"));
    let p = planes(&mid);
    assert_eq!(
        [
            at(&p, PENDING_TOWER, 8),
            at(&p, PENDING_RAY, 0),
            at(&p, PENDING_RAY, 16)
        ],
        [1.0, 1.0, 0.0]
    );
    let other_way = compound("w b1:b a2:ww b2:b h8:b >a2:n");
    differ(&mid, &other_way);
    assert_eq!(
        (16..64)
            .step_by(8)
            .map(|s| at(&planes(&other_way), PENDING_RAY, s))
            .sum::<f32>(),
        6.0
    );
    // Counters: plies without capture and plies played, which a position string starts at 0.
    let mut g = game("w a1:w a2:w b1:b b2:b h8:b");
    let mut actions = ActionList::new();
    g.legal_actions(&mut actions);
    g.apply_action(actions[0]);
    let fresh = game(&g.position());
    differ(&g, &fresh);
    let (p, q) = (planes(&g), planes(&fresh));
    assert_eq!([at(&p, NO_CAPTURE, 0), at(&p, PLIES, 0)], [0.01, 1.0 / 300.0]);
    assert_eq!([at(&q, NO_CAPTURE, 0), at(&q, PLIES, 0)], [0.0, 0.0]);
}

fn sorted(mut actions: Vec<Action>) -> Vec<Action> {
    actions.sort_unstable();
    actions
}

/// `encode(g)` is the untransformed encoding of `g.transformed(canonical_symmetry())`; the network's policy
/// indices of `g`'s legal actions are the legal actions of that image, and playing corresponding actions gives
/// corresponding positions. Checked along random playouts of both variants, every symmetry for the planes.
#[test]
fn view_rule_along_playouts() {
    let mut actions = ActionList::new();
    let mut image_actions = ActionList::new();
    let mut black_seen = 0;
    for seed in 0..16 {
        let mut rng = CheckRng::new(seed);
        let variant = if seed % 2 == 0 { None } else { Some("compound") };
        let mut g = Tours::start(&rules(variant));
        for _ in 0..60 {
            let canonical = g.canonical_symmetry();
            assert_eq!(canonical, if g.to_move() == Side::Second { 2 } else { 0 });
            black_seen += (canonical == 2) as usize;
            let image = g.transformed(canonical);
            assert_eq!(planes(&g), planes_view(&image, 0), "{}", g.position());
            for sym in 0..Tours::SYMMETRIES {
                assert_eq!(
                    planes_view(&g, sym),
                    planes_view(&g.transformed(sym), 0),
                    "sym {sym}: {}",
                    g.position()
                );
            }
            g.legal_actions(&mut actions);
            image.legal_actions(&mut image_actions);
            let policy: Vec<Action> = actions.iter().map(|&a| Tours::transform_action(a, canonical)).collect();
            assert_eq!(
                sorted(policy),
                sorted(image_actions.iter().copied().collect()),
                "{}",
                g.position()
            );
            if actions.is_empty() {
                break;
            }
            let a = actions[rng.below(actions.len())];
            let mut child = image.clone();
            child.apply_action(Tours::transform_action(a, canonical));
            g.apply_action(a);
            assert_eq!(child.position(), g.transformed(canonical).position());
        }
    }
    assert!(black_seen > 100);
}

#[test]
fn random_playouts_encode_in_range() {
    let mut actions = ActionList::new();
    let mut pending_seen = 0;
    for seed in 0..24 {
        let mut rng = CheckRng::new(100 + seed);
        let variant = if seed % 2 == 0 { None } else { Some("compound") };
        let mut g = Tours::start(&rules(variant));
        loop {
            let p = planes(&g);
            check_planes(&g, &p);
            pending_seen += g.pending_collapse().is_some() as usize;
            g.legal_actions(&mut actions);
            if actions.is_empty() {
                break;
            }
            g.apply_action(actions[rng.below(actions.len())]);
        }
    }
    assert!(pending_seen > 0);
}

#[test]
fn policy_planes_hold_each_action_once_at_its_starting_square() {
    let cells = Tours::POLICY_PLANES * AREA;
    let mut seen = vec![None; cells];
    for action in 0..Tours::ACTION_SPACE as Action {
        let cell = Tours::policy_cell(action);
        assert!(cell < cells, "action {action} at cell {cell} of {cells}");
        if let Some(other) = seen[cell].replace(action) {
            panic!("actions {other} and {action} share cell {cell}");
        }
        let described = Tours::describe_action(action);
        let from = described.split_whitespace().nth(1).expect("a square");
        let square = zero_games::tours::square_name(cell % AREA);
        assert_eq!(square, from, "action {action} ({described}) read at {square}");
    }
}

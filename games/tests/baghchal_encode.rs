//! Bagh Chal's network input: shape and range, what the planes tell apart, the (trivial) view rule and how the
//! planes follow the board symmetries, and random playouts.

use zero_games::baghchal::{BaghChal, BaghChalRules};
use zero_games::checks::CheckRng;
use zero_games::{ActionList, Encoding, Game, Side};

const AREA: usize = 25;
const TIGERS: usize = 0;
const GOATS: usize = 1;
const EMPTY: usize = 2;
const DIAGONALS: usize = 3;
const GOATS_TO_MOVE: usize = 4;
const IN_HAND: usize = 5;
const CAPTURED: usize = 6;
const PLACEMENT: usize = 7;
const PLIES: usize = 8;
const HISTORY: usize = 9;
const REPEATS: usize = 10;
const RULE_BAN: usize = 11;
const RULE_THREEFOLD: usize = 13;

fn rules(options: &[&str]) -> BaghChalRules {
    let options: Vec<String> = options.iter().map(|s| s.to_string()).collect();
    BaghChal::parse_rules(None, &options).expect("valid rules")
}

fn game(position: &str) -> BaghChal {
    BaghChal::from_position(&BaghChalRules::default(), position).unwrap_or_else(|e| panic!("{e}"))
}

/// The planes, written over a buffer of NaNs so that any value `encode` forgets shows.
fn planes(game: &BaghChal) -> Vec<f32> {
    let mut planes = vec![f32::NAN; BaghChal::INPUT_PLANES * BaghChal::BOARD_HEIGHT * BaghChal::BOARD_WIDTH];
    game.encode(&mut planes);
    planes
}

fn plane(planes: &[f32], index: usize) -> &[f32] {
    &planes[index * AREA..(index + 1) * AREA]
}

/// Every value written, finite, in [0, 1]; constant planes constant; one of tiger, goat, empty per point.
fn check_planes(game: &BaghChal, planes: &[f32]) {
    let here = game.position();
    assert_eq!(planes.len(), BaghChal::INPUT_PLANES * AREA);
    assert!(
        planes.iter().all(|v| v.is_finite() && (0.0..=1.0).contains(v)),
        "{here}: {planes:?}"
    );
    for p in 0..AREA {
        let sum: f32 = [TIGERS, GOATS, EMPTY].iter().map(|&i| plane(planes, i)[p]).sum();
        assert_eq!(sum, 1.0, "{here}: point {p}");
    }
    for i in GOATS_TO_MOVE..BaghChal::INPUT_PLANES {
        assert!(
            plane(planes, i).iter().all(|&v| v == plane(planes, i)[0]),
            "{here}: plane {i} not constant"
        );
    }
    assert_eq!(plane(planes, GOATS_TO_MOVE)[0] == 1.0, game.to_move() == Side::First);
    assert_eq!(plane(planes, IN_HAND)[0], game.goats_in_hand() as f32 / 20.0);
    assert_eq!(plane(planes, CAPTURED)[0], game.goats_captured() as f32 / 5.0);
    assert_eq!(plane(planes, PLACEMENT)[0] == 1.0, game.goats_in_hand() > 0);
}

#[test]
fn shape_range_and_determinism() {
    assert_eq!(
        (BaghChal::INPUT_PLANES, BaghChal::BOARD_HEIGHT, BaghChal::BOARD_WIDTH),
        (14, 5, 5)
    );
    assert_eq!(BaghChal::ENCODING_VERSION, 1);
    let start = BaghChal::start(&BaghChalRules::default());
    let first = planes(&start);
    check_planes(&start, &first);
    let mut again = vec![0.5; first.len()];
    start.encode(&mut again);
    assert_eq!(first, again);
    // Tigers on the corners (row 0 = rank 1), 13 points with diagonals, goats to move, 20 in hand, ban rule.
    let tigers: Vec<usize> = (0..AREA).filter(|&p| plane(&first, TIGERS)[p] == 1.0).collect();
    assert_eq!(tigers, [0, 4, 20, 24]);
    assert_eq!(plane(&first, DIAGONALS).iter().sum::<f32>(), 13.0);
    assert_eq!(plane(&first, DIAGONALS)[1], 0.0);
    assert_eq!(plane(&first, DIAGONALS)[12], 1.0);
    assert_eq!(
        [
            GOATS_TO_MOVE,
            IN_HAND,
            CAPTURED,
            PLACEMENT,
            PLIES,
            HISTORY,
            REPEATS,
            RULE_BAN
        ]
        .map(|i| plane(&first, i)[0]),
        [1.0, 1.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0]
    );
}

#[test]
fn rule_relevant_differences_show() {
    let differ = |a: &BaghChal, b: &BaghChal| assert_ne!(planes(a), planes(b), "{} vs {}", a.position(), b.position());
    // Side to move.
    differ(
        &game("T...T/...../..G../...../T...T g 19 0"),
        &game("T...T/...../..G../...../T...T t 19 0"),
    );
    // Goats in hand against goats captured, same board.
    differ(
        &game("T...T/...../..G../...../T...T g 19 0"),
        &game("T...T/...../..G../...../T...T g 18 1"),
    );
    // A tiger or a goat on a point.
    differ(
        &game("G...T/...../..T../...../T...T g 19 0"),
        &game("T...T/...../..G../...../T...T g 19 0"),
    );
    // Phase: the last goat in hand or the movement phase, same board (the counts differ too).
    let placing = game("GGGGT/..T.G/.GGTG/TGGGG/GG.GG g 1 3");
    let moving = game("GGGGT/..T.G/.GGTG/TGGGG/GG.GG g 0 4");
    differ(&placing, &moving);
    assert_eq!(
        [
            plane(&planes(&placing), PLACEMENT)[0],
            plane(&planes(&moving), PLACEMENT)[0]
        ],
        [1.0, 0.0]
    );
    // The rule set.
    let threefold = BaghChal::from_position(&rules(&["repetition=threefold-draw"]), &moving.position()).unwrap();
    differ(&moving, &threefold);
    assert_eq!(plane(&planes(&threefold), RULE_THREEFOLD)[0], 1.0);
    // Plies played, and the repetition history, which a position string starts afresh.
    let mut stepped = moving.clone();
    let mut actions = ActionList::new();
    stepped.legal_actions(&mut actions);
    let step = actions.iter().copied().find(|&a| {
        let mut child = moving.clone();
        child.apply_action(a);
        child.goats_captured() == moving.goats_captured()
    });
    stepped.apply_action(step.expect("a goat step"));
    let fresh = game(&stepped.position());
    differ(&stepped, &fresh);
    assert!(plane(&planes(&stepped), HISTORY)[0] > plane(&planes(&fresh), HISTORY)[0]);
    assert!(plane(&planes(&stepped), PLIES)[0] > 0.0);
}

/// The canonical symmetry is the identity, and the planes of a transformed position are the planes of the
/// position moved point by point (the diagonals and the constant planes stay).
#[test]
fn no_turning_and_planes_follow_symmetries() {
    let mut rng = CheckRng::new(7);
    let mut actions = ActionList::new();
    for seed in 0..20 {
        let mut g = BaghChal::start(&BaghChalRules::default());
        for _ in 0..(seed * 7) {
            g.legal_actions(&mut actions);
            if actions.is_empty() {
                break;
            }
            g.apply_action(actions[rng.below(actions.len())]);
        }
        assert_eq!(g.canonical_symmetry(), 0);
        assert_eq!(planes(&g), planes(&g.transformed(0)));
        let base = planes(&g);
        for sym in 0..BaghChal::SYMMETRIES {
            let image = planes(&g.transformed(sym));
            // Placement actions are point indices: their images map the points.
            let point_image: Vec<usize> = (0..AREA)
                .map(|p| BaghChal::transform_action(p as u16, sym) as usize)
                .collect();
            for i in 0..BaghChal::INPUT_PLANES {
                for p in 0..AREA {
                    assert_eq!(
                        image[i * AREA + point_image[p]],
                        base[i * AREA + p],
                        "sym {sym} plane {i} point {p}"
                    );
                }
            }
        }
    }
}

#[test]
fn random_playouts_encode_in_range() {
    let mut actions = ActionList::new();
    let mut saw_repeat = false;
    for (seed, options) in (0..40).zip(
        [
            &[][..],
            &["repetition=threefold-draw"],
            &["repetition=goats-lose-on-repetition"],
        ]
        .iter()
        .cycle(),
    ) {
        let mut rng = CheckRng::new(seed);
        let mut g = BaghChal::start(&rules(options));
        loop {
            let p = planes(&g);
            check_planes(&g, &p);
            let repeats = g.repetitions().saturating_sub(1).min(2) as f32 / 2.0;
            assert_eq!(plane(&p, REPEATS)[0], repeats, "{}", g.position());
            saw_repeat |= repeats > 0.0;
            g.legal_actions(&mut actions);
            if actions.is_empty() {
                break;
            }
            g.apply_action(actions[rng.below(actions.len())]);
        }
    }
    assert!(saw_repeat, "some playout repeats a position");
}

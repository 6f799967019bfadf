//! The network encoding of Bashni: shape, the side to move's view, the symmetry it applies, and that every fact
//! the rules depend on shows in the planes.

use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};

use zero_games::bashni::{Bashni, Rules, TOWER_DEPTH, VARIANTS, planes};
use zero_games::checks::CheckRng;
use zero_games::{ActionList, Encoding, Game, Side};

const CELLS: usize = 64;

/// Games per preset in the playout test.
const GAMES: u64 = if cfg!(debug_assertions) { 20 } else { 100 };

fn rules(options: &[&str]) -> Rules {
    let options: Vec<String> = options.iter().map(|o| o.to_string()).collect();
    Rules::parse(None, &options).expect("valid rules")
}

fn game(position: &str) -> Bashni {
    Bashni::from_position(&Rules::default(), position).expect("a valid position")
}

/// The planes, written over a buffer of NaNs (encode must overwrite every value).
fn encode(game: &Bashni) -> Vec<f32> {
    let mut out = vec![f32::NAN; Bashni::INPUT_PLANES * Bashni::BOARD_HEIGHT * Bashni::BOARD_WIDTH];
    game.encode(&mut out);
    out
}

fn plane(planes: &[f32], index: usize) -> &[f32] {
    &planes[index * CELLS..(index + 1) * CELLS]
}

/// The value of plane `index` on file `file`, rank `rank` (from 0) of the board as the side to move sees it.
fn value(planes: &[f32], index: usize, file: usize, rank: usize) -> f32 {
    plane(planes, index)[rank * 8 + file]
}

fn is_light(cell: usize) -> bool {
    !(cell / 8 + cell % 8).is_multiple_of(2)
}

/// The planes that differ between two encodings.
fn differing_planes(a: &[f32], b: &[f32]) -> Vec<usize> {
    (0..Bashni::INPUT_PLANES)
        .filter(|&p| plane(a, p) != plane(b, p))
        .collect()
}

fn play(game: &mut Bashni, mv: &str) {
    let mv = game.parse_move(mv).unwrap_or_else(|e| panic!("{e}"));
    game.play(&mv);
}

#[test]
fn shape_and_constants() {
    assert_eq!(Bashni::INPUT_PLANES, planes::COUNT);
    assert_eq!(Bashni::INPUT_PLANES, 4 * TOWER_DEPTH + 12);
    assert_eq!((Bashni::BOARD_HEIGHT, Bashni::BOARD_WIDTH), (8, 8));
    assert_eq!(Bashni::ENCODING_VERSION, 1);
}

#[test]
fn start_position_is_encoded_as_documented() {
    let start = Bashni::start(&Rules::default());
    let planes = encode(&start);
    assert_eq!(planes.len(), Bashni::INPUT_PLANES * CELLS);
    assert_eq!(planes, encode(&start), "deterministic");
    for (i, &v) in planes.iter().enumerate() {
        assert!(v.is_finite() && (0.0..=1.0).contains(&v), "value {v} at {i}");
        if is_light(i % CELLS) {
            assert_eq!(v, 0.0, "light cell {} of plane {}", i % CELLS, i / CELLS);
        }
    }
    let own = plane(&planes, planes::piece(0, planes::OWN_MAN));
    let opponent = plane(&planes, planes::piece(0, planes::OPPONENT_MAN));
    for cell in 0..CELLS {
        let dark = !is_light(cell);
        assert_eq!(own[cell], (dark && cell / 8 < 3) as u8 as f32, "own men at cell {cell}");
        assert_eq!(
            opponent[cell],
            (dark && cell / 8 >= 5) as u8 as f32,
            "opponent men at cell {cell}"
        );
        assert_eq!(plane(&planes, planes::ONES)[cell], dark as u8 as f32);
        assert_eq!(
            plane(&planes, planes::HEIGHT)[cell],
            (dark && (cell / 8 < 3 || cell / 8 >= 5)) as u8 as f32 / 24.0
        );
    }
    for p in [
        planes::piece(0, planes::OWN_KING),
        planes::piece(0, planes::OPPONENT_KING),
        planes::piece(1, planes::OWN_MAN),
        planes::OWN_BELOW,
        planes::OPPONENT_BELOW,
        planes::CAPTURING,
        planes::LAST_JUMPED,
        planes::JUMPED,
        planes::JUMP_ORDER,
        planes::MID_CAPTURE,
        planes::NO_PROGRESS,
        planes::PLY,
    ] {
        assert!(plane(&planes, p).iter().all(|&v| v == 0.0), "plane {p}");
    }
    // The start position has occurred once: 1/3 under the default repetition=3.
    assert_eq!(value(&planes, planes::REPETITION, 0, 0), 1.0 / 3.0);
}

#[test]
fn black_to_move_sees_the_board_turned_with_its_pieces_as_own() {
    // Black to move: Black's tower f6 (commander a black man over a white man) shows at c3, rows counted from
    // Black's side; White's king on c3 shows at f6 as the opponent's.
    let position = game("b c3:W f6:bw");
    assert_eq!(position.canonical_symmetry(), 1);
    assert_eq!(game("w c3:W f6:bw").canonical_symmetry(), 0);
    let planes = encode(&position);
    assert_eq!(value(&planes, planes::piece(0, planes::OWN_MAN), 2, 2), 1.0);
    assert_eq!(value(&planes, planes::piece(1, planes::OPPONENT_MAN), 2, 2), 1.0);
    assert_eq!(value(&planes, planes::HEIGHT, 2, 2), 2.0 / 24.0);
    assert_eq!(value(&planes, planes::piece(0, planes::OPPONENT_KING), 5, 5), 1.0);
    let marked: f32 = planes[..planes::OWN_BELOW * CELLS].iter().sum();
    assert_eq!(marked, 3.0, "three pieces in all");
}

#[test]
fn towers_are_encoded_piece_by_piece_then_counted() {
    let deep = "w c3:wbbbbbbbbwwb f6:b"; // 12 pieces: 8 shown, then b w w b below
    let planes = encode(&game(deep));
    for depth in 1..TOWER_DEPTH {
        assert_eq!(
            value(&planes, planes::piece(depth, planes::OPPONENT_MAN), 2, 2),
            1.0,
            "depth {depth}"
        );
    }
    assert_eq!(value(&planes, planes::OWN_BELOW, 2, 2), 2.0 / 12.0);
    assert_eq!(value(&planes, planes::OPPONENT_BELOW, 2, 2), 2.0 / 12.0);
    assert_eq!(value(&planes, planes::HEIGHT, 2, 2), 12.0 / 24.0);

    let different_below = encode(&game("w c3:wbbbbbbbbwbb f6:b"));
    assert_eq!(
        differing_planes(&planes, &different_below),
        vec![planes::OWN_BELOW, planes::OPPONENT_BELOW]
    );
}

#[test]
fn rule_relevant_differences_change_the_encoding() {
    let pairs = [
        (
            "w c3:wbb f6:b",
            "w c3:wbw f6:b",
            "a different piece under the commander",
        ),
        ("w c3:wbb f6:b", "w c3:wbB f6:b", "a prisoner crowned or not"),
        ("w c3:wb f6:b", "w c3:wbb f6:b", "a taller tower"),
        ("w c3:W f6:b", "w c3:w f6:b", "a king versus a man"),
        ("w c3:w f6:b h8:b", "b c3:w f6:b h8:b", "the side to move"),
        ("w c3:w f6:b", "w c3:b f6:w", "the colours of the commanders"),
    ];
    for (a, b, what) in pairs {
        assert_ne!(encode(&game(a)), encode(&game(b)), "{what}: {a} / {b}");
    }
}

#[test]
fn positions_equal_up_to_the_symmetry_encode_alike() {
    // The start board turned with the colours swapped is the start board: with Black to move it is the same
    // position from the mover's view.
    let start = Bashni::start(&Rules::default());
    let black_to_move = game(&start.position().replacen("w ", "b ", 1));
    assert_eq!(black_to_move.to_move(), Side::Second);
    assert_eq!(encode(&black_to_move), encode(&start));
}

#[test]
fn mid_capture_state_is_encoded() {
    // White c3 jumps d4 to e5, then must go on over f6 to g7 (or d6 to c7).
    let mut position = game("w c3:w d4:b f6:b d6:b h8:b");
    let mut actions = ActionList::new();
    position.legal_actions(&mut actions);
    let jump = actions
        .iter()
        .copied()
        .find(|&a| Bashni::describe_action(a) == "c3 ne 2 to e5")
        .expect("the jump c3:e5");
    position.apply_action(jump);
    assert_eq!(
        position.capturing_square().map(|s| s.to_string()),
        Some("e5".to_string())
    );
    let planes = encode(&position);
    assert_eq!(value(&planes, planes::CAPTURING, 4, 4), 1.0);
    assert_eq!(value(&planes, planes::LAST_JUMPED, 3, 3), 1.0);
    assert_eq!(value(&planes, planes::JUMPED, 3, 3), 1.0);
    assert_eq!(value(&planes, planes::JUMP_ORDER, 3, 3), 1.0 / 12.0);
    assert_eq!(value(&planes, planes::MID_CAPTURE, 0, 0), 1.0);
    assert_eq!(plane(&planes, planes::CAPTURING).iter().sum::<f32>(), 1.0);

    // The same board between moves, White to move, differs only in the capture planes.
    let between = Bashni::from_position(position.rules(), &position.position()).unwrap();
    assert_eq!(
        differing_planes(&planes, &encode(&between)),
        vec![
            planes::CAPTURING,
            planes::LAST_JUMPED,
            planes::JUMPED,
            planes::JUMP_ORDER,
            planes::MID_CAPTURE
        ]
    );
}

#[test]
fn pending_prisoners_under_end_of_move_transfer_are_encoded_in_order() {
    let rules = rules(&["capture_transfer=end_of_move"]);
    let mut position = Bashni::from_position(&rules, "w a1:w b2:B d4:b f6:b h8:b").unwrap();
    let mut actions = ActionList::new();
    let mut jump = |position: &mut Bashni, step: &str| {
        position.legal_actions(&mut actions);
        let a = actions.iter().copied().find(|&a| Bashni::describe_action(a) == step);
        position.apply_action(a.unwrap_or_else(|| panic!("{step} not in {actions:?}")));
    };
    jump(&mut position, "a1 ne 2 to c3");
    jump(&mut position, "c3 ne 2 to e5");
    assert!(position.capturing_square().is_some());
    let planes = encode(&position);
    // The jumped pieces still stand until the move ends; the order says in which order they go under.
    assert_eq!(value(&planes, planes::piece(0, planes::OPPONENT_KING), 1, 1), 1.0);
    assert_eq!(value(&planes, planes::piece(0, planes::OPPONENT_MAN), 3, 3), 1.0);
    assert_eq!(value(&planes, planes::JUMP_ORDER, 1, 1), 1.0 / 12.0);
    assert_eq!(value(&planes, planes::JUMP_ORDER, 3, 3), 2.0 / 12.0);
    assert_eq!(plane(&planes, planes::JUMPED).iter().sum::<f32>(), 2.0);
    assert_eq!(value(&planes, planes::LAST_JUMPED, 3, 3), 1.0);
    assert_eq!(value(&planes, planes::CAPTURING, 4, 4), 1.0);
    assert_eq!(value(&planes, planes::HEIGHT, 4, 4), 1.0 / 24.0);

    jump(&mut position, "e5 ne 2 to g7");
    assert!(position.capturing_square().is_none());
    // Black to move: g7 is seen at b2, the white man over the king, then the two men.
    let planes = encode(&position);
    assert_eq!(value(&planes, planes::HEIGHT, 1, 1), 4.0 / 24.0);
    assert_eq!(value(&planes, planes::piece(0, planes::OPPONENT_MAN), 1, 1), 1.0);
    assert_eq!(value(&planes, planes::piece(1, planes::OWN_KING), 1, 1), 1.0);
    assert_eq!(value(&planes, planes::piece(2, planes::OWN_MAN), 1, 1), 1.0);
    assert_eq!(value(&planes, planes::piece(3, planes::OWN_MAN), 1, 1), 1.0);
    assert_eq!(value(&planes, planes::MID_CAPTURE, 0, 0), 0.0);
}

#[test]
fn draw_counters_are_encoded() {
    // Without the ply cap and the repetition rule, only the no-progress plane tells these apart.
    let rules = rules(&["max_plies=0", "repetition=0"]);
    let start = Bashni::from_position(&rules, "w a3:W h6:B").unwrap();
    let mut moved = start.clone();
    for mv in ["a3-b4", "h6-g7", "b4-a3", "g7-h6"] {
        play(&mut moved, mv);
    }
    assert_eq!(moved.position(), start.position());
    assert_eq!(moved.plies_since_progress(), 4);
    let (a, b) = (encode(&start), encode(&moved));
    assert_eq!(differing_planes(&a, &b), vec![planes::NO_PROGRESS]);
    assert_eq!(value(&b, planes::NO_PROGRESS, 2, 0), 4.0 / 30.0);

    // With the default rules, the repetition count and the ply count show too.
    let start = game("w a3:W h6:B");
    let mut moved = start.clone();
    for mv in ["a3-b4", "h6-g7", "b4-a3", "g7-h6"] {
        play(&mut moved, mv);
    }
    assert_eq!(moved.repetition_count(), 2);
    let (a, b) = (encode(&start), encode(&moved));
    assert_eq!(
        differing_planes(&a, &b),
        vec![planes::NO_PROGRESS, planes::REPETITION, planes::PLY]
    );
    assert_eq!(value(&b, planes::REPETITION, 0, 0), 2.0 / 3.0);
    assert_eq!(value(&b, planes::PLY, 0, 0), 4.0 / 300.0);
}

/// Checks the symmetry rules on one position: it encodes like its `transformed(1)` image, and corresponding
/// legal actions get the same policy index.
fn check_symmetry(position: &Bashni, planes: &[f32]) -> Result<(), String> {
    let image = position.transformed(1);
    if encode(&image) != planes {
        return Err(format!(
            "{} encodes unlike its image {}",
            position.position(),
            image.position()
        ));
    }
    if position.to_move() == Side::Second && image.canonical_symmetry() != 0 {
        return Err("the image of a Black-to-move position is not shown as is".to_string());
    }
    let (mut here, mut there) = (ActionList::new(), ActionList::new());
    position.legal_actions(&mut here);
    image.legal_actions(&mut there);
    let index = |g: &Bashni, a| Bashni::transform_action(a, g.canonical_symmetry());
    let mut mine: Vec<_> = here.iter().map(|&a| index(position, a)).collect();
    let mut theirs: Vec<_> = there.iter().map(|&a| index(&image, a)).collect();
    for (&a, &i) in here.iter().zip(&mine) {
        let b = Bashni::transform_action(a, 1);
        if !there.contains(b) || index(&image, b) != i {
            return Err(format!(
                "{}: action {a} has no counterpart with index {i}",
                position.position()
            ));
        }
    }
    mine.sort_unstable();
    theirs.sort_unstable();
    if mine != theirs {
        return Err(format!(
            "{}: policy indices differ from the image's",
            position.position()
        ));
    }
    Ok(())
}

#[test]
fn black_to_move_encodes_like_its_turned_image() {
    let start = Bashni::start(&Rules::default()).position().replacen("w ", "b ", 1);
    for position in [
        "b c3:W f6:bw",
        start.as_str(),
        "b c3:wbb e5:Bww h8:b a1:W",
        "w c3:wbbbbbbbbwwb f6:b g7:B",
    ] {
        let position = game(position);
        check_symmetry(&position, &encode(&position)).unwrap();
    }
}

/// The encoding without the draw counters, hashed, to find positions that encode alike.
fn board_key(planes: &[f32]) -> u64 {
    let mut hasher = DefaultHasher::new();
    for (p, chunk) in planes.chunks(CELLS).enumerate() {
        if ![planes::NO_PROGRESS, planes::REPETITION, planes::PLY].contains(&p) {
            chunk.iter().for_each(|v| v.to_bits().hash(&mut hasher));
        }
    }
    hasher.finish()
}

/// The hash of a position as the side to move sees it (board, capture state), without the draw counters.
fn canonical_hash(game: &Bashni) -> u64 {
    game.transformed(game.canonical_symmetry()).hash()
}

#[test]
fn random_playouts_encode_soundly_under_every_preset() {
    let mut seen: HashMap<u64, (u64, String)> = HashMap::new();
    let mut actions = ActionList::new();
    let mut encoded = 0;
    for variant in VARIANTS {
        let rules = Rules::parse(Some(variant), &[]).expect("a preset");
        for seed in 0..GAMES {
            let mut rng = CheckRng::new(seed);
            let mut game = Bashni::start(&rules);
            for _ in 0..5000 {
                let planes = encode(&game);
                encoded += 1;
                if let Some(i) = planes.iter().position(|v| !v.is_finite() || !(0.0..=1.0).contains(v)) {
                    panic!("{variant} {seed}: {} has {} at {i}", game.position(), planes[i]);
                }
                if let Some(i) = planes
                    .iter()
                    .enumerate()
                    .position(|(i, &v)| v != 0.0 && is_light(i % CELLS))
                {
                    panic!("{variant} {seed}: {} marks a light cell at {i}", game.position());
                }
                check_symmetry(&game, &planes).unwrap_or_else(|e| panic!("{variant} {seed}: {e}"));
                // Equal planes must mean the same position (towers shown in full only up to TOWER_DEPTH).
                let shallow = zero_games::bashni::Square::all().all(|s| game.tower(s).height() <= TOWER_DEPTH);
                if shallow {
                    let here = (canonical_hash(&game), game.position());
                    let before = seen.entry(board_key(&planes)).or_insert_with(|| here.clone());
                    assert_eq!(
                        before.0, here.0,
                        "{variant} {seed}: {} and {} encode alike",
                        before.1, here.1
                    );
                }
                game.legal_actions(&mut actions);
                if actions.is_empty() {
                    break;
                }
                game.apply_action(actions[rng.below(actions.len())]);
            }
            assert!(game.outcome().is_some(), "{variant} {seed}: game did not end");
        }
    }
    assert!(encoded > 1000);
}

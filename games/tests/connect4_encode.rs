//! Connect Four's network input: shape and meaning of each plane, what the planes tell apart, and the mirror
//! acting on planes and actions alike.

use zero_games::checks::CheckRng;
use zero_games::connect4::{Connect4, Connect4Rules};
use zero_games::{ActionList, Encoding, Game};

const AREA: usize = 42;
const OWN: usize = 0;
const OPPONENT: usize = 1;
const LANDING: usize = 2;
const FIRST_TO_MOVE: usize = 3;

fn game(position: &str) -> Connect4 {
    Connect4::from_position(&Connect4Rules, position).unwrap_or_else(|e| panic!("{e}"))
}

/// The planes, written over a buffer of NaNs so that any value `encode` forgets shows.
fn planes(game: &Connect4) -> Vec<f32> {
    let mut planes = vec![f32::NAN; Connect4::INPUT_PLANES * AREA];
    game.encode(&mut planes);
    planes
}

fn cells(planes: &[f32], plane: usize) -> Vec<usize> {
    (0..AREA).filter(|&c| planes[plane * AREA + c] == 1.0).collect()
}

#[test]
fn planes_show_own_and_opponent_discs_and_where_each_column_lands() {
    assert_eq!(
        (Connect4::INPUT_PLANES, Connect4::BOARD_HEIGHT, Connect4::BOARD_WIDTH),
        (4, 6, 7)
    );
    // x on d1 and e1, o on d2: o to move. Cell index row * 7 + column, row 0 at the bottom.
    let g = game("4455");
    let p = planes(&g);
    assert!(p.iter().all(|v| *v == 0.0 || *v == 1.0), "{p:?}");
    assert_eq!(g.position(), "......./......./......./......./...oo../...xx.. x");
    assert_eq!(cells(&p, OWN), [3, 4]);
    assert_eq!(cells(&p, OPPONENT), [10, 11]);
    assert_eq!(cells(&p, LANDING), [0, 1, 2, 5, 6, 17, 18]);
    assert_eq!(cells(&p, FIRST_TO_MOVE).len(), AREA);
    // After one more disc the planes swap owners and the constant plane clears.
    let p = planes(&game("44553"));
    assert_eq!(cells(&p, OWN), [10, 11]);
    assert_eq!(cells(&p, OPPONENT), [2, 3, 4]);
    assert!(cells(&p, FIRST_TO_MOVE).is_empty());
}

#[test]
fn the_mirror_maps_planes_cell_by_cell_and_actions_column_by_column() {
    assert_eq!(Connect4::AUGMENTATIONS, 2);
    assert_eq!(Connect4::grid_symmetry(1), 4);
    let mut rng = CheckRng::new(7);
    let mut actions = ActionList::new();
    for _ in 0..200 {
        let mut g = Connect4::start(&Connect4Rules);
        for _ in 0..rng.below(30) {
            g.legal_actions(&mut actions);
            if actions.is_empty() {
                break;
            }
            g.apply_action(actions[rng.below(actions.len())]);
        }
        let (p, image) = (planes(&g), g.transformed(1));
        let q = planes(&image);
        for plane in 0..Connect4::INPUT_PLANES {
            for cell in 0..AREA {
                let (row, column) = (cell / 7, cell % 7);
                assert_eq!(
                    p[plane * AREA + cell],
                    q[plane * AREA + row * 7 + 6 - column],
                    "{}",
                    g.position()
                );
            }
        }
        assert_eq!(image.transformed(1).position(), g.position());
        assert_eq!(image.hash(), image.recompute_hash());
        assert_eq!(image.to_move(), g.to_move());
        assert_eq!(Connect4::transform_action(2, 1), 4);
    }
}

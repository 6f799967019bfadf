//! Augmentation of stored (canonical) samples by a symmetry equals encoding the transformed position: checked on
//! real positions of Bagh Chal and Tours (both variants, so Tours' direction ray, plane 18, is exercised), and
//! Bashni gets none.
mod common;

use zero_games::baghchal::BaghChal;
use zero_games::bashni::Bashni;
use zero_games::checks::CheckRng;
use zero_games::policy_index;
use zero_games::tours::Tours;
use zero_games::{ActionList, Encoding, Game, GameKind, with_game};
use zero_train::augment::Augmenter;

fn encode<G: Encoding>(g: &G) -> Vec<f32> {
    let mut planes = vec![0.0; zero_games::input_len::<G>()];
    g.encode(&mut planes);
    planes
}

/// Walks random games of `rules`; at every position checks every augmentation. Returns positions checked and
/// how many had plane `watch` set somewhere.
fn check_symmetries<G: Encoding>(rules: &G::Rules, games: usize, seed: u64, watch: Option<usize>) -> (usize, usize) {
    let augmenter = Augmenter::new::<G>(true);
    assert_eq!(augmenter.symmetries(), G::AUGMENTATIONS);
    let cells = G::BOARD_HEIGHT * G::BOARD_WIDTH;
    let mut rng = CheckRng::new(seed);
    let (mut checked, mut watched) = (0, 0);
    let mut legal = ActionList::new();
    let mut image_legal = ActionList::new();
    for _ in 0..games {
        let mut g = G::start(rules);
        for _ in 0..80 {
            g.legal_actions(&mut legal);
            if legal.is_empty() {
                break;
            }
            let stored = encode(&g);
            if let Some(p) = watch
                && stored[p * cells..(p + 1) * cells].iter().any(|&v| v != 0.0)
            {
                watched += 1;
            }
            for s in 0..G::AUGMENTATIONS {
                let image = g.transformed(s);
                let mut turned = vec![0.0; stored.len()];
                augmenter.transform_planes(&stored, s, &mut turned);
                assert_eq!(encode(&image), turned, "{} sym {s}: {}", G::NAME, g.position());
                // Each legal action's policy index maps to that of the corresponding action of the image.
                image.legal_actions(&mut image_legal);
                let mut expected: Vec<u16> = image_legal.iter().map(|&a| policy_index(&image, a) as u16).collect();
                let mut mapped: Vec<u16> = legal
                    .iter()
                    .map(|&a| augmenter.transform_action(policy_index(&g, a) as u16, s))
                    .collect();
                for &a in legal.iter() {
                    assert_eq!(
                        policy_index(&image, G::transform_action(a, s)) as u16,
                        augmenter.transform_action(policy_index(&g, a) as u16, s),
                        "{} sym {s}: action {}",
                        G::NAME,
                        G::describe_action(a)
                    );
                }
                expected.sort_unstable();
                mapped.sort_unstable();
                assert_eq!(expected, mapped);
            }
            checked += 1;
            g.apply_action(legal[rng.below(legal.len())]);
        }
    }
    (checked, watched)
}

#[test]
fn every_registered_games_samples_augment_like_transformed_positions() {
    for &kind in GameKind::ALL {
        let checked = with_game!(kind, G => {
            let rules = G::parse_rules(None, &[]).unwrap();
            check_symmetries::<G>(&rules, 4, 11, None).0
        });
        assert!(checked > 40, "{kind}: {checked}");
    }
}

#[test]
fn bagh_chal_samples_augment_like_transformed_positions() {
    assert_eq!(BaghChal::AUGMENTATIONS, 8);
    let rules = BaghChal::parse_rules(None, &[]).unwrap();
    let (checked, _) = check_symmetries::<BaghChal>(&rules, 6, 3, None);
    assert!(checked > 200, "{checked}");
}

#[test]
fn tours_samples_augment_like_transformed_positions_with_the_direction_ray() {
    assert_eq!(Tours::AUGMENTATIONS, 8);
    let plain = Tours::parse_rules(None, &[]).unwrap();
    let (checked, _) = check_symmetries::<Tours>(&plain, 4, 5, None);
    assert!(checked > 100, "{checked}");
    // Black to move is seen turned by 180 degrees; that turn commutes with all eight symmetries.
    let compound = Tours::parse_rules(Some("compound"), &[]).unwrap();
    let (checked, with_ray) = check_symmetries::<Tours>(&compound, 4, 7, Some(18));
    assert!(checked > 100, "{checked}");
    assert!(with_ray > 10, "only {with_ray} positions drew the forbidden direction");
}

#[test]
fn bashni_gets_no_augmentation_because_its_symmetry_fixes_canonical_views() {
    assert_eq!(Bashni::AUGMENTATIONS, 1);
    assert_eq!(Augmenter::new::<Bashni>(true).symmetries(), 1);
    let rules = Bashni::parse_rules(None, &[]).unwrap();
    let mut rng = CheckRng::new(9);
    let mut legal = ActionList::new();
    let mut g = Bashni::start(&rules);
    for _ in 0..60 {
        g.legal_actions(&mut legal);
        if legal.is_empty() {
            break;
        }
        // The other symmetry gives the very same sample: nothing to gain.
        assert_eq!(encode(&g), encode(&g.transformed(1)), "{}", g.position());
        g.apply_action(legal[rng.below(legal.len())]);
    }
}

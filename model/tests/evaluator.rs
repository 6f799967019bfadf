//! The evaluators the search sees: priors are distributions over exactly the legal actions, the cache answers
//! what the network would, and the network and uniform evaluators are interchangeable.

use tch::{Device, Kind, Tensor, nn};
use zero_games::bashni::Bashni;
use zero_games::checks::CheckRng;
use zero_games::{ActionList, Encoding, Game};
use zero_model::network::NetShape;
use zero_model::{NetworkConfig, NetworkEvaluator, PolicyValueNet, Precision};
use zero_search::{CachedEvaluator, EvalRequest, Evaluator, UniformEvaluator};

fn positions<G: Encoding>(count: usize) -> Vec<(G, ActionList)> {
    let rules = G::parse_rules(None, &[]).unwrap();
    let mut rng = CheckRng::new(5);
    let mut out = Vec::new();
    let mut game = G::start(&rules);
    let mut legal = ActionList::new();
    while out.len() < count {
        game.legal_actions(&mut legal);
        if legal.is_empty() {
            game = G::start(&rules);
            continue;
        }
        out.push((game.clone(), legal.clone()));
        game.apply_action(legal[rng.below(legal.len())]);
    }
    out
}

fn check_distributions<G: Encoding>(
    evaluator: &mut dyn Evaluator<G>,
    batch: &[(G, ActionList)],
) -> Vec<zero_search::Evaluation> {
    let requests: Vec<EvalRequest<'_, G>> = batch.iter().map(|(g, l)| EvalRequest { game: g, legal: l }).collect();
    let evals = evaluator.evaluate(&requests);
    assert_eq!(evals.len(), batch.len());
    for ((_, legal), e) in batch.iter().zip(&evals) {
        assert_eq!(e.priors.len(), legal.len());
        assert!(e.priors.iter().all(|p| p.is_finite() && *p >= 0.0));
        assert!((e.priors.iter().sum::<f32>() - 1.0).abs() < 1e-4);
        assert!((-1.0..=1.0).contains(&e.value));
        assert!((e.wdl.iter().sum::<f32>() - 1.0).abs() < 1e-4);
    }
    evals
}

#[test]
fn network_priors_are_distributions_over_the_legal_actions() {
    let batch = positions::<Bashni>(40);
    let config = NetworkConfig {
        blocks: 1,
        channels: 8,
        ..Default::default()
    };
    let vs = nn::VarStore::new(Device::Cpu);
    let net = PolicyValueNet::new(&vs.root(), &config, NetShape::of::<Bashni>());
    let mut plain = NetworkEvaluator::<Bashni>::new(vs, net, "test");
    let evals = check_distributions(&mut plain, &batch);
    assert_eq!(plain.batch_stats(), (1, 40));

    // The same network behind a cache: the first pass fills it, the second is answered from it, identically.
    let vs = nn::VarStore::new(Device::Cpu);
    let net = PolicyValueNet::new(&vs.root(), &config, NetShape::of::<Bashni>());
    let mut cached = CachedEvaluator::new(NetworkEvaluator::<Bashni>::new(vs, net, "cached"), 1000);
    let first = check_distributions(&mut cached, &batch);
    let second = check_distributions(&mut cached, &batch);
    assert_eq!(first, second);
    let (hits, lookups) = cached.stats();
    assert_eq!(lookups, 80);
    assert!(hits >= 40, "second pass answered from the cache: {hits} hits");
    assert_eq!(evals.len(), first.len());
}

#[test]
fn uniform_evaluator_spreads_evenly() {
    let batch = positions::<Bashni>(10);
    let evals = check_distributions::<Bashni>(&mut UniformEvaluator, &batch);
    for ((_, legal), e) in batch.iter().zip(evals) {
        assert!(e.priors.iter().all(|p| (p - 1.0 / legal.len() as f32).abs() < 1e-6));
        assert_eq!(e.value, 0.0);
    }
}

/// A small network with every optional part: squeeze-excitation and global pooling take means (which must come
/// back in the network's format), and the moves-left head.
fn every_option_network() -> NetworkConfig {
    NetworkConfig {
        blocks: 2,
        channels: 16,
        squeeze_excitation: true,
        global_pool: true,
        moves_left: true,
        ..Default::default()
    }
}

#[test]
fn bf16_evaluation_stays_close_to_f32_with_every_network_option() {
    let batch = positions::<Bashni>(24);
    let config = every_option_network();
    let vs = nn::VarStore::new(Device::Cpu);
    let net = PolicyValueNet::new(&vs.root(), &config, NetShape::of::<Bashni>());
    let mut evaluator = NetworkEvaluator::<Bashni>::new(vs, net, "test");
    assert_eq!(evaluator.kind(), Kind::Float);
    let f32_evals = check_distributions(&mut evaluator, &batch);
    let mut evaluator = evaluator.with_precision(Precision::Bf16);
    assert_eq!(evaluator.kind(), Kind::BFloat16);
    let bf16_evals = check_distributions(&mut evaluator, &batch);
    let (mut prior, mut value) = (0f32, 0f32);
    for (a, b) in f32_evals.iter().zip(&bf16_evals) {
        value = value.max((a.value - b.value).abs());
        prior = a
            .priors
            .iter()
            .zip(&b.priors)
            .fold(prior, |m, (p, q)| m.max((p - q).abs()));
        assert!(b.moves_left.is_some_and(f32::is_finite));
    }
    assert!(
        prior < 0.02 && value < 0.05,
        "bf16 is off by {prior} in priors, {value} in values"
    );
    assert!(
        prior > 0.0 || value > 0.0,
        "bf16 gave exactly f32's numbers: it did not run in bf16"
    );
    // And back to f32 (the weights keep bf16's rounding, so the numbers are close, not equal).
    let mut evaluator = evaluator.with_precision(Precision::F32);
    assert_eq!(evaluator.kind(), Kind::Float);
    check_distributions(&mut evaluator, &batch);
}

#[test]
fn folded_norms_give_what_the_network_itself_gives() {
    let batch = positions::<Bashni>(32);
    let config = every_option_network();
    tch::manual_seed(7);
    let vs = nn::VarStore::new(Device::Cpu);
    let net = PolicyValueNet::new(&vs.root(), &config, NetShape::of::<Bashni>());
    let mut encoded = Vec::new();
    zero_games::encode_batch(batch.iter().map(|(g, _)| g), &mut encoded);
    let input = zero_model::encode::batch_tensor::<Bashni>(&encoded);
    // Norms far from the identity: running statistics of training-mode passes (on inputs scaled and shifted
    // away from the positions'), and norm weights and biases moved off their initial values.
    tch::no_grad(|| {
        for pass in 0..20 {
            let _ = net.forward(&(&input * (1.0 + pass as f64 / 4.0) + 0.5), true);
        }
        for (name, mut var) in vs.variables() {
            if name.contains("norm") && (name.ends_with(".weight") || name.ends_with(".bias")) {
                var.copy_(&(Tensor::rand_like(&var) * 2.0 - 0.5));
            }
        }
    });
    let expected = tch::no_grad(|| net.forward(&input, false));
    let logits: Vec<f32> = Vec::try_from(expected.policy.flatten(0, -1)).unwrap();
    let wdl: Vec<f32> = Vec::try_from(expected.wdl.softmax(-1, Kind::Float).flatten(0, -1)).unwrap();
    let moves_left: Vec<f32> = Vec::try_from(expected.moves_left.unwrap()).unwrap();
    let mut evaluator = NetworkEvaluator::<Bashni>::new(vs, net, "folded");
    let evals = check_distributions(&mut evaluator, &batch);
    let actions = Bashni::ACTION_SPACE;
    let mut worst = 0f32;
    for (i, ((game, legal), e)) in batch.iter().zip(&evals).enumerate() {
        let priors = zero_search::legal_softmax(game, legal, &logits[i * actions..(i + 1) * actions]);
        worst = e
            .priors
            .iter()
            .zip(&priors)
            .fold(worst, |m, (p, q)| m.max((p - q).abs()));
        worst = worst.max((e.value - (wdl[3 * i] - wdl[3 * i + 2])).abs());
        worst = worst.max((e.moves_left.unwrap() - moves_left[i]).abs() / moves_left[i].max(1.0));
    }
    assert!(worst < 1e-4, "folded evaluation is off by {worst}");
    // Logits far from flat, so that a wrong fold (a bias or a scale lost) could not hide in them.
    let spread: f32 = logits.iter().map(|l| l.abs()).sum::<f32>() / logits.len() as f32;
    assert!(
        spread > 0.1,
        "logits too flat ({spread}) for the comparison to mean anything"
    );
}

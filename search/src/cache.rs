//! [`CachedEvaluator`]: any evaluator behind a bounded cache of its evaluations, keyed by position. Bagh Chal
//! and Tours transpose constantly, so a search asks for the same position many times (`docs/experiments/speed.md`
//! measures the gain); whatever runs the network (libtorch, ONNX) gets the same cache.

use crate::evaluator::{EvalRequest, Evaluation, Evaluator};
use rustc_hash::FxHashMap;
use zero_games::{Action, Game};

/// The cache key: the position hash mixed with the legal actions, because a rule such as Bagh Chal's repetition
/// ban can give the same board different legal moves.
fn cache_key<G: Game>(game: &G, legal: &[Action]) -> u64 {
    let mut key = game.hash();
    for &a in legal {
        key = (key ^ a as u64).wrapping_mul(0x100_0000_01B3).rotate_left(5);
    }
    key
}

/// Evaluations by position, bounded in size: it is emptied when full (cheap, and recent positions refill it).
pub struct CachedEvaluator<E> {
    inner: E,
    map: FxHashMap<u64, Evaluation>,
    capacity: usize,
    hits: u64,
    lookups: u64,
}

impl<E> CachedEvaluator<E> {
    /// `inner` behind a cache of up to `capacity` evaluations (0 passes every request through).
    pub fn new(inner: E, capacity: usize) -> Self {
        CachedEvaluator {
            inner,
            map: FxHashMap::default(),
            capacity,
            hits: 0,
            lookups: 0,
        }
    }

    /// Cache hits and lookups so far.
    pub fn stats(&self) -> (u64, u64) {
        (self.hits, self.lookups)
    }

    /// The evaluator behind the cache, for calls that must reach it (timing the network itself).
    pub fn inner_mut(&mut self) -> &mut E {
        &mut self.inner
    }
}

impl<G: Game, E: Evaluator<G>> Evaluator<G> for CachedEvaluator<E> {
    fn evaluate(&mut self, batch: &[EvalRequest<'_, G>]) -> Vec<Evaluation> {
        if self.capacity == 0 {
            return self.inner.evaluate(batch);
        }
        let mut results: Vec<Option<Evaluation>> = Vec::with_capacity(batch.len());
        let mut missing = Vec::new();
        for request in batch {
            self.lookups += 1;
            match self.map.get(&cache_key(request.game, request.legal)) {
                Some(hit) => {
                    self.hits += 1;
                    results.push(Some(hit.clone()));
                }
                None => {
                    missing.push(results.len());
                    results.push(None);
                }
            }
        }
        if !missing.is_empty() {
            let requests: Vec<EvalRequest<'_, G>> = missing
                .iter()
                .map(|&i| EvalRequest {
                    game: batch[i].game,
                    legal: batch[i].legal,
                })
                .collect();
            let fresh = self.inner.evaluate(&requests);
            for (&i, evaluation) in missing.iter().zip(fresh) {
                if self.map.len() >= self.capacity {
                    self.map.clear();
                }
                self.map
                    .insert(cache_key(batch[i].game, batch[i].legal), evaluation.clone());
                results[i] = Some(evaluation);
            }
        }
        results
            .into_iter()
            .map(|e| e.expect("every request answered"))
            .collect()
    }

    fn name(&self) -> String {
        self.inner.name()
    }
}

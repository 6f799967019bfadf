//! From positions to input tensors (the encoded floats come from [`zero_games::encode_batch`], the priors over
//! the legal actions from [`zero_search::legal_softmax`], both torch-free for the ONNX runtime's sake), and the
//! masked log-softmax of training.
//!
//! Every game writes its own planes ([`Encoding::encode`], documented per game in `docs/encoding.md`), from the
//! side to move's view: the game may turn the board by one of its symmetries (its
//! [`Encoding::canonical_symmetry`]) so that the player to move always sees the board the same way round. The
//! policy head then speaks in that turned frame, so a legal action `a` is read at index
//! `G::transform_action(a, game.canonical_symmetry())`: [`zero_games::policy_index`].

use tch::{Kind, Tensor};
use zero_games::{Encoding, input_len};

/// The encoded batch as a tensor of shape `[N, planes, height, width]` on the CPU.
pub fn batch_tensor<G: Encoding>(encoded: &[f32]) -> Tensor {
    let n = (encoded.len() / input_len::<G>()) as i64;
    Tensor::from_slice(encoded).view([n, G::INPUT_PLANES as i64, G::BOARD_HEIGHT as i64, G::BOARD_WIDTH as i64])
}

/// Log-softmax over the actions where `mask` (bool or 0/1, same shape as `logits`) is set; masked-out actions
/// get a log-probability of -inf in the output (and so zero probability). Rows must have one legal action.
pub fn masked_log_softmax(logits: &Tensor, mask: &Tensor) -> Tensor {
    let mask = mask.to_kind(Kind::Bool);
    let filled = logits.masked_fill(&mask.logical_not(), f64::NEG_INFINITY);
    filled.log_softmax(-1, Kind::Float)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masked_softmax_puts_no_mass_on_illegal_actions() {
        let logits = Tensor::from_slice(&[3.0f32, 1.0, 2.0, 5.0, 0.0, -1.0]).view([2, 3]);
        let mask = Tensor::from_slice(&[1u8, 0, 1, 0, 1, 1]).view([2, 3]);
        let p = masked_log_softmax(&logits, &mask).exp();
        let p: Vec<f32> = Vec::try_from(p.flatten(0, -1)).unwrap();
        assert_eq!(p[1], 0.0);
        assert_eq!(p[3], 0.0);
        assert!((p[0] + p[2] - 1.0).abs() < 1e-6);
        assert!((p[4] + p[5] - 1.0).abs() < 1e-6);
        assert!((p[0] / p[2] - (1.0f32).exp()).abs() < 1e-4);
    }
}

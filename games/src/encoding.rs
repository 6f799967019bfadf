//! What the network sees of a game: [`Encoding`], the input planes from the side to move's view, and the
//! canonical symmetry that turns the board so that the side to move always sees it the same way round. The
//! `zero-model` crate batches these planes into tensors, the trainer augments them; each game writes its planes
//! in `src/<game>/encode.rs`, documented in `docs/encoding.md`.

use crate::{Action, Game};

/// The strength levels' search ([`Encoding::LEVELS`]) of a game whose networks' policy alone already plays
/// well: from one simulation at a high temperature up to 128 at none.
pub const STANDARD_LEVELS: [(u32, f32); 5] = [(1, 2.0), (1, 1.0), (8, 0.5), (32, 0.2), (128, 0.0)];

/// A game's network encoding.
pub trait Encoding: Game {
    /// Number of input planes of the network's encoding.
    const INPUT_PLANES: usize;
    /// Rows of each input plane (ranks of the board).
    const BOARD_HEIGHT: usize;
    /// Columns of each input plane (files of the board).
    const BOARD_WIDTH: usize;
    /// Version of the encoding; bumped whenever a plane changes meaning, so that old checkpoints are refused.
    const ENCODING_VERSION: u32;
    /// Symmetries `0..AUGMENTATIONS` that the trainer may apply to a stored (already canonical) sample: each
    /// must commute with every [`Encoding::canonical_symmetry`], act on the input planes as the spatial map of
    /// the square's symmetry [`Encoding::grid_symmetry`] (see `grid.rs`; cell `(row, column)` is `(rank, file)`),
    /// and on policy indices as [`Game::transform_action`]. 1 (identity only) when no symmetry gives a new sample: in
    /// Bashni the only other symmetry maps a canonical view onto itself.
    const AUGMENTATIONS: usize = 1;
    /// The search of the strength levels `beginner`, `casual`, `club`, `expert` and `strong` for this game's
    /// networks (`zero_search::Level`), weakest first: simulations a move and the move choice's temperature. A
    /// game whose networks' raw policy plays no better than chance needs simulations at the low levels too, or
    /// they are not ordered; docs/protocol.md has each game's measured table.
    const LEVELS: [(u32, f32); 5] = STANDARD_LEVELS;
    /// Planes of the game's spatial action map, for a network whose policy head is a convolution
    /// (`network.policy_head = "conv"`): every action is one plane at one cell, its logit computed from the
    /// features at that cell (AlphaZero's chess head). 0, the default, when the game has no such map: its
    /// networks keep the linear head.
    const POLICY_PLANES: usize = 0;

    /// The symmetry of the square (numbered as in `grid.rs`) whose spatial map is this game's symmetry `sym` on
    /// the input planes. The same number by default: the square boards number their symmetries as `grid` does.
    /// A rectangular board has only the symmetries that keep its shape (a mirror of files or of ranks, the turn by
    /// 180 degrees): Connect Four's symmetry 1, the mirror, is the square's 4.
    fn grid_symmetry(sym: usize) -> usize {
        sym
    }

    /// With [`Encoding::POLICY_PLANES`] > 0: the index `plane * height * width + row * width + column` of
    /// `action` (a network-view action, after the canonical symmetry) in the action planes, cell `(row, column)` as
    /// in [`Encoding::encode`], naturally the cell the move starts from. Distinct actions have distinct indices.
    /// Never called when the game has no map.
    fn policy_cell(action: Action) -> usize {
        action as usize
    }

    /// The symmetry under which the network sees this position: the one that shows the board from the side to
    /// move's usual point of view (0 when the game needs no turning). [`Encoding::encode`] applies it, and the
    /// network's policy index of a legal action `a` is `transform_action(a, canonical_symmetry())`.
    fn canonical_symmetry(&self) -> usize {
        0
    }

    /// Writes the network input, `INPUT_PLANES x BOARD_HEIGHT x BOARD_WIDTH` floats (row-major, plane by plane,
    /// row 0 = the first rank as seen after the canonical symmetry), from the side to move's view: planes speak
    /// of "own" and "opponent" pieces, never of colours. Every fact the rules depend on must be in the planes
    /// (documented in `docs/encoding.md`). `planes` has exactly that length and may hold old values.
    fn encode(&self, planes: &mut [f32]);
}

/// Floats in one encoded position.
pub fn input_len<G: Encoding>() -> usize {
    G::INPUT_PLANES * G::BOARD_HEIGHT * G::BOARD_WIDTH
}

/// Appends the encoding of each position to `out` (cleared first): `[N, planes, height, width]`, row-major, as
/// every network runtime takes it.
pub fn encode_batch<'a, G: Encoding>(games: impl IntoIterator<Item = &'a G>, out: &mut Vec<f32>) {
    let len = input_len::<G>();
    out.clear();
    for game in games {
        let start = out.len();
        out.resize(start + len, 0.0);
        game.encode(&mut out[start..]);
    }
}

/// The index of `action` in the policy head's output for `game`: the action seen through the canonical view.
#[inline]
pub fn policy_index<G: Encoding>(game: &G, action: Action) -> usize {
    G::transform_action(action, game.canonical_symmetry()) as usize
}

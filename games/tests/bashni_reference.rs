//! A deliberately naive second implementation of the rules (an 8x8 array of stacks as strings, every jump on
//! a fresh copy), compared with the engine move for move and position for position under every preset.

use zero_games::bashni::{Bashni, CaptureTransfer, KingLanding, PromotionMidCapture, Rejump, Rules, VARIANTS};
use zero_games::checks::CheckRng;
use zero_games::{Game, perft};

/// Stacks top first, indexed by `rank * 8 + file`.
#[derive(Clone)]
struct Naive {
    cells: Vec<String>,
    white: bool,
}

const DIRS: [(i32, i32); 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];

fn name(cell: usize) -> String {
    format!("{}{}", (b'a' + (cell % 8) as u8) as char, cell / 8 + 1)
}

fn at(f: i32, r: i32) -> Option<usize> {
    ((0..8).contains(&f) && (0..8).contains(&r)).then_some((r * 8 + f) as usize)
}

fn owner_white(stack: &str) -> bool {
    stack.starts_with(['w', 'W'])
}

impl Naive {
    fn parse(position: &str) -> Naive {
        let mut tokens = position.split_whitespace();
        let white = tokens.next() == Some("w");
        let mut cells = vec![String::new(); 64];
        for token in tokens {
            let (sq, stack) = token.split_once(':').unwrap();
            let b = sq.as_bytes();
            cells[((b[1] - b'1') * 8 + (b[0] - b'a')) as usize] = stack.to_string();
        }
        Naive { cells, white }
    }

    fn position(&self) -> String {
        let mut text = String::from(if self.white { "w" } else { "b" });
        for r in 0..8 {
            for f in 0..8 {
                let c = r * 8 + f;
                if !self.cells[c].is_empty() {
                    text += &format!(" {}:{}", name(c), self.cells[c]);
                }
            }
        }
        text
    }

    /// Every legal move as (notation, resulting position).
    fn moves(&self, rules: &Rules) -> Vec<(String, Naive)> {
        let mut captures = Vec::new();
        let mut quiet = Vec::new();
        for c in 0..64 {
            if self.cells[c].is_empty() || owner_white(&self.cells[c]) != self.white {
                continue;
            }
            let mut board = self.clone();
            let capturer = std::mem::take(&mut board.cells[c]);
            board.jumps(rules, c, capturer.clone(), &mut vec![c], &mut Vec::new(), &mut captures);
            let king = capturer.starts_with(['W', 'B']);
            let (f, r) = ((c % 8) as i32, (c / 8) as i32);
            for (d, &(df, dr)) in DIRS.iter().enumerate() {
                if !king && (d < 2) != self.white {
                    continue;
                }
                let mut k = 1;
                while let Some(to) = at(f + df * k, r + dr * k) {
                    if !self.cells[to].is_empty() {
                        break;
                    }
                    let mut next = self.clone();
                    let mut stack = std::mem::take(&mut next.cells[c]);
                    if !king && to / 8 == if self.white { 7 } else { 0 } {
                        stack.replace_range(0..1, &stack[0..1].to_uppercase());
                    }
                    next.cells[to] = stack;
                    next.white = !self.white;
                    quiet.push((format!("{}-{}", name(c), name(to)), next));
                    if !king {
                        break;
                    }
                    k += 1;
                }
            }
        }
        if captures.is_empty() || !rules.mandatory_capture {
            captures.extend(quiet);
        }
        captures
    }

    /// Continues a capture by `capturer` (lifted off the board) standing on `c`.
    fn jumps(
        &self,
        rules: &Rules,
        c: usize,
        capturer: String,
        path: &mut Vec<usize>,
        jumped: &mut Vec<usize>,
        out: &mut Vec<(String, Naive)>,
    ) -> bool {
        let king = capturer.starts_with(['W', 'B']);
        let (f, r) = ((c % 8) as i32, (c / 8) as i32);
        let mut found = false;
        for (d, &(df, dr)) in DIRS.iter().enumerate() {
            if !king && !rules.men_capture_backward && (d < 2) != self.white {
                continue;
            }
            let mut k = 1;
            let mut mid = at(f + df, r + dr);
            while king && mid.is_some_and(|m| self.cells[m].is_empty()) {
                k += 1;
                mid = at(f + df * k, r + dr * k);
            }
            let Some(mid) = mid else { continue };
            let stack = &self.cells[mid];
            if stack.is_empty() || owner_white(stack) == self.white {
                continue;
            }
            let allowed = match rules.rejump {
                Rejump::NotConsecutive => jumped.last() != Some(&mid),
                Rejump::Once => !jumped.contains(&mid),
                Rejump::Free => true,
            };
            if !allowed {
                continue;
            }
            let mut landings = Vec::new();
            let mut j = k + 1;
            while let Some(land) = at(f + df * j, r + dr * j) {
                if !self.cells[land].is_empty() {
                    break;
                }
                landings.push(land);
                if !king {
                    break;
                }
                j += 1;
            }
            if landings.is_empty() {
                continue;
            }
            found = true;
            let mut after = self.clone();
            let mut capturer = capturer.clone();
            if rules.capture_transfer == CaptureTransfer::Immediate {
                let top = after.cells[mid].remove(0);
                capturer.push(top);
            }
            jumped.push(mid);
            let mut results = Vec::new();
            for &land in &landings {
                let mut capturer = capturer.clone();
                let crowned = !king && land / 8 == if self.white { 7 } else { 0 };
                if crowned {
                    capturer.replace_range(0..1, &capturer[0..1].to_uppercase());
                }
                path.push(land);
                let mut ends = Vec::new();
                let stop = crowned && rules.promotion_mid_capture == PromotionMidCapture::Stop;
                let goes_on = !stop && after.jumps(rules, land, capturer.clone(), path, jumped, &mut ends);
                if !goes_on {
                    ends.push(after.finish(path, jumped, land, capturer));
                }
                results.push((goes_on, ends));
                path.pop();
            }
            jumped.pop();
            let any_goes_on = results.iter().any(|(g, _)| *g);
            for (goes_on, ends) in results {
                if goes_on || !any_goes_on || !king || rules.king_landing == KingLanding::Free {
                    out.extend(ends);
                }
            }
        }
        found
    }

    fn finish(&self, path: &[usize], jumped: &[usize], land: usize, mut capturer: String) -> (String, Naive) {
        let mut end = self.clone();
        if TURKISH.with(|t| t.get()) {
            for &m in jumped {
                let top = end.cells[m].remove(0);
                capturer.push(top);
            }
        }
        end.cells[land] = capturer;
        end.white = !self.white;
        let text = path.iter().map(|&c| name(c)).collect::<Vec<_>>().join(":");
        (text, end)
    }
}

thread_local! {
    /// Whether the rules being checked use the end-of-move transfer (read by `Naive::finish`).
    static TURKISH: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

fn naive_perft(position: &Naive, rules: &Rules, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    position
        .moves(rules)
        .iter()
        .map(|(_, next)| naive_perft(next, rules, depth - 1))
        .sum()
}

#[test]
fn perft_agrees_with_the_naive_rules() {
    let rules = Rules::default().without_draw_rules();
    let start = Bashni::start(&rules);
    let naive = Naive::parse(&start.position());
    let depth = if cfg!(debug_assertions) { 5 } else { 7 };
    for d in 1..=depth {
        assert_eq!(perft(&start, d), naive_perft(&naive, &rules, d), "depth {d}");
    }
}

#[test]
fn every_position_of_random_games_agrees_with_the_naive_rules() {
    let games = if cfg!(debug_assertions) { 12 } else { 150 };
    for variant in VARIANTS
        .iter()
        .copied()
        .chain(["men_capture_backward=false", "king_landing=free", "rejump=free"])
    {
        let rules = match variant.split_once('=') {
            Some(_) => Rules::parse(None, &[variant.to_string()]),
            None => Rules::parse(Some(variant), &[]),
        }
        .unwrap()
        .without_draw_rules();
        TURKISH.with(|t| t.set(rules.capture_transfer == CaptureTransfer::EndOfMove));
        for seed in 0..games {
            let mut rng = CheckRng::new(seed);
            let mut game = Bashni::start(&rules);
            let mut moves = Vec::new();
            for _ in 0..200 {
                let naive = Naive::parse(&game.position());
                let mut expected: Vec<(String, String)> = naive
                    .moves(&rules)
                    .into_iter()
                    .map(|(m, next)| (m, next.position()))
                    .collect();
                game.legal_moves(&mut moves);
                let mut got: Vec<(String, String)> = moves
                    .iter()
                    .map(|m| {
                        let mut next = game.clone();
                        next.play(m);
                        (game.format_move(m), next.position())
                    })
                    .collect();
                expected.sort();
                got.sort();
                assert_eq!(got, expected, "{variant}: {}", game.position());
                if moves.is_empty() {
                    break;
                }
                game.play(&moves[rng.below(moves.len())]);
            }
        }
    }
}

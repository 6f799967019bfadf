//! The rule set: the variant parameters of the one move generator, and the draw rules.

use crate::{RulesError, parse_bool, parse_count, parse_options};

/// What a man does when it is crowned in the middle of a capture.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PromotionMidCapture {
    /// It is crowned at once and goes on capturing as a king if it can (default).
    Continue,
    /// The move ends on the crowning square (Ludii's game code).
    Stop,
}

/// Where a king may land after jumping.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum KingLanding {
    /// On a square from which it can go on capturing, if there is one (default).
    Continue,
    /// On any empty square beyond the jumped tower (Ludii's game code).
    Free,
}

/// How often one tower may be jumped in one move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Rejump {
    /// Again, but not in two consecutive jumps (default).
    NotConsecutive,
    /// At most once per move.
    Once,
    /// Without limit.
    Free,
}

/// When the jumped pieces go under the capturer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CaptureTransfer {
    /// At each jump (default).
    Immediate,
    /// All at the end of the move, in jump order; until then they stay and block ("Turkish strike").
    EndOfMove,
}

/// A complete Bashni rule set. The default is the `russian` preset with the draw rules of RULES.md.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Rules {
    pub men_capture_backward: bool,
    pub promotion_mid_capture: PromotionMidCapture,
    pub king_landing: KingLanding,
    pub rejump: Rejump,
    pub capture_transfer: CaptureTransfer,
    pub mandatory_capture: bool,
    /// Occurrences of one position that draw the game; 0 = off.
    pub repetition: u32,
    /// Consecutive plies without a capture or a man's move that draw the game; 0 = off.
    pub no_progress_plies: u32,
    /// Plies in all after which the game is drawn; 0 = off.
    pub max_plies: u32,
}

impl Default for Rules {
    fn default() -> Rules {
        Rules {
            men_capture_backward: true,
            promotion_mid_capture: PromotionMidCapture::Continue,
            king_landing: KingLanding::Continue,
            rejump: Rejump::NotConsecutive,
            capture_transfer: CaptureTransfer::Immediate,
            mandatory_capture: true,
            repetition: 3,
            no_progress_plies: 30,
            max_plies: 300,
        }
    }
}

/// The named presets, in the order listed in errors.
pub const VARIANTS: &[&str] = &["russian", "ludii", "dagaz", "optional-capture"];

const OPTIONS: &[&str] = &[
    "men_capture_backward",
    "promotion_mid_capture",
    "king_landing",
    "rejump",
    "capture_transfer",
    "mandatory_capture",
    "repetition",
    "no_progress_plies",
    "max_plies",
];

impl Rules {
    /// A preset by name (`_` and `-` are interchangeable).
    pub fn preset(name: &str) -> Result<Rules, RulesError> {
        let base = Rules::default();
        match name.replace('_', "-").as_str() {
            "russian" => Ok(base),
            "ludii" => Ok(Rules {
                men_capture_backward: false,
                promotion_mid_capture: PromotionMidCapture::Stop,
                king_landing: KingLanding::Free,
                ..base
            }),
            "dagaz" => Ok(Rules {
                capture_transfer: CaptureTransfer::EndOfMove,
                rejump: Rejump::Once,
                ..base
            }),
            "optional-capture" => Ok(Rules {
                mandatory_capture: false,
                ..base
            }),
            _ => Err(RulesError::UnknownVariant {
                game: "bashni",
                name: name.to_string(),
                known: VARIANTS.join(", "),
            }),
        }
    }

    /// The preset `variant` (default `russian`) with the `key=value` options applied in order.
    pub fn parse(variant: Option<&str>, options: &[String]) -> Result<Rules, RulesError> {
        let mut rules = Rules::preset(variant.unwrap_or("russian"))?;
        for (key, value) in parse_options(options)? {
            rules.set(&key, &value)?;
        }
        if rules.capture_transfer == CaptureTransfer::EndOfMove && rules.rejump != Rejump::Once {
            return Err(bad_value(
                "rejump",
                rejump_name(rules.rejump),
                "capture_transfer=end_of_move keeps jumped pieces in place until the move ends, so rejump must be once",
            ));
        }
        Ok(rules)
    }

    fn set(&mut self, key: &str, value: &str) -> Result<(), RulesError> {
        let normalised = value.replace('-', "_");
        match key {
            "men_capture_backward" => self.men_capture_backward = parse_bool(key, value)?,
            "mandatory_capture" => self.mandatory_capture = parse_bool(key, value)?,
            "promotion_mid_capture" => {
                self.promotion_mid_capture = match normalised.as_str() {
                    "continue" => PromotionMidCapture::Continue,
                    "stop" => PromotionMidCapture::Stop,
                    _ => return Err(bad_value(key, value, "expected continue or stop")),
                }
            }
            "king_landing" => {
                self.king_landing = match normalised.as_str() {
                    "continue" => KingLanding::Continue,
                    "free" => KingLanding::Free,
                    _ => return Err(bad_value(key, value, "expected continue or free")),
                }
            }
            "rejump" => {
                self.rejump = match normalised.as_str() {
                    "not_consecutive" => Rejump::NotConsecutive,
                    "once" => Rejump::Once,
                    "free" => Rejump::Free,
                    _ => {
                        return Err(bad_value(key, value, "expected not_consecutive, once or free"));
                    }
                }
            }
            "capture_transfer" => match normalised.as_str() {
                "immediate" => self.capture_transfer = CaptureTransfer::Immediate,
                "end_of_move" => {
                    // The Turkish strike implies that a tower is jumped at most once.
                    self.capture_transfer = CaptureTransfer::EndOfMove;
                    self.rejump = Rejump::Once;
                }
                _ => return Err(bad_value(key, value, "expected immediate or end_of_move")),
            },
            "repetition" => self.repetition = parse_count(key, value)?,
            "no_progress_plies" => self.no_progress_plies = parse_count(key, value)?,
            "max_plies" => self.max_plies = parse_count(key, value)?,
            _ => {
                return Err(RulesError::UnknownOption {
                    game: "bashni",
                    key: key.to_string(),
                    known: OPTIONS.join(", "),
                });
            }
        }
        Ok(())
    }

    /// Every option as `key=value`, in a fixed order; [`Rules::parse`] of these gives the same rules.
    pub fn describe(&self) -> Vec<String> {
        vec![
            format!("men_capture_backward={}", self.men_capture_backward),
            format!(
                "promotion_mid_capture={}",
                match self.promotion_mid_capture {
                    PromotionMidCapture::Continue => "continue",
                    PromotionMidCapture::Stop => "stop",
                }
            ),
            format!(
                "king_landing={}",
                match self.king_landing {
                    KingLanding::Continue => "continue",
                    KingLanding::Free => "free",
                }
            ),
            format!(
                "capture_transfer={}",
                match self.capture_transfer {
                    CaptureTransfer::Immediate => "immediate",
                    CaptureTransfer::EndOfMove => "end_of_move",
                }
            ),
            // After capture_transfer, which may set it.
            format!("rejump={}", rejump_name(self.rejump)),
            format!("mandatory_capture={}", self.mandatory_capture),
            format!("repetition={}", self.repetition),
            format!("no_progress_plies={}", self.no_progress_plies),
            format!("max_plies={}", self.max_plies),
        ]
    }

    /// The same rules with repetition, no-progress and ply-cap draws switched off.
    pub fn without_draw_rules(&self) -> Rules {
        Rules {
            repetition: 0,
            no_progress_plies: 0,
            max_plies: 0,
            ..*self
        }
    }
}

fn rejump_name(rejump: Rejump) -> &'static str {
    match rejump {
        Rejump::NotConsecutive => "not_consecutive",
        Rejump::Once => "once",
        Rejump::Free => "free",
    }
}

fn bad_value(key: &str, value: &str, reason: &str) -> RulesError {
    RulesError::BadValue {
        key: key.to_string(),
        value: value.to_string(),
        reason: reason.to_string(),
    }
}

//! The text of a serialized state (`State.serialize`, `Game.deserialize_state`), as OpenSpiel's users save
//! states:
//!
//! ```text
//! zero-state 1
//! game bashni
//! rules men_capture_backward=true promotion_mid_capture=continue ...
//! origin w a1:w c1:w ...
//! actions 52 380 ...
//! ```
//!
//! The origin is the position the state's action history starts from (the initial position, or the one it was
//! made from). Reading checks the layout only; the game checks the rules and replays the actions.

use zero_games::Action;

/// The first line, which names the format and its version.
const HEADER: &str = "zero-state 1";

/// A serialized state's fields, as written.
#[derive(Debug, PartialEq)]
pub struct Serialized<'a> {
    pub game: &'a str,
    pub rules: Vec<&'a str>,
    pub origin: &'a str,
    pub actions: Vec<Action>,
}

/// The text of a state of `game` under `rules`, `actions` played from `origin` (a position in notation).
pub fn write(game: &str, rules: &[String], origin: &str, actions: &[Action]) -> String {
    let line = |key: &str, value: String| {
        if value.is_empty() {
            format!("{key}\n")
        } else {
            format!("{key} {value}\n")
        }
    };
    let actions: Vec<String> = actions.iter().map(Action::to_string).collect();
    format!(
        "{HEADER}\n{}{}{}{}",
        line("game", game.to_string()),
        line("rules", rules.join(" ")),
        line("origin", origin.to_string()),
        line("actions", actions.join(" "))
    )
}

/// Why a text is not a serialized state: the line or action that does not fit the layout.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct BadSerialization(String);

/// The rest of line `number` (1-based) of `lines`, which must be `key` alone or `key` and a space before it.
fn field<'a>(lines: &[&'a str], number: usize, key: &str) -> Result<&'a str, BadSerialization> {
    let line = lines.get(number - 1).copied().unwrap_or("");
    match line.strip_prefix(key) {
        Some("") => Ok(""),
        Some(rest) if rest.starts_with(' ') => Ok(&rest[1..]),
        _ => Err(BadSerialization(format!(
            "serialized state, line {number}: expected '{key} ...', got {line:?}"
        ))),
    }
}

/// The fields of `text`; the error names the line or action that does not fit the layout.
pub fn read(text: &str) -> Result<Serialized<'_>, BadSerialization> {
    let lines: Vec<&str> = text.trim_end_matches('\n').split('\n').collect();
    if lines.first().copied() != Some(HEADER) {
        return Err(BadSerialization(format!(
            "not a serialized state: the first line must be {HEADER:?}, got {:?}",
            lines.first().copied().unwrap_or("")
        )));
    }
    if lines.len() != 5 {
        return Err(BadSerialization(format!(
            "serialized state: expected 5 lines (header, game, rules, origin, actions), got {}",
            lines.len()
        )));
    }
    let actions = field(&lines, 5, "actions")?
        .split_whitespace()
        .enumerate()
        .map(|(index, word)| {
            word.parse::<Action>().map_err(|_| {
                BadSerialization(format!(
                    "serialized state, action {}: {word:?} is not an action",
                    index + 1
                ))
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Serialized {
        game: field(&lines, 2, "game")?,
        rules: field(&lines, 3, "rules")?.split_whitespace().collect(),
        origin: field(&lines, 4, "origin")?,
        actions,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_state_round_trips_and_a_bad_layout_names_its_line() {
        let text = write("bashni", &["a=1".into(), "b=2".into()], "w a1:w c3:b", &[5, 17]);
        assert_eq!(
            text,
            "zero-state 1\ngame bashni\nrules a=1 b=2\norigin w a1:w c3:b\nactions 5 17\n"
        );
        let read_back = read(&text).unwrap();
        assert_eq!(
            read_back,
            Serialized {
                game: "bashni",
                rules: vec!["a=1", "b=2"],
                origin: "w a1:w c3:b",
                actions: vec![5, 17]
            }
        );
        let empty = write("connect4", &[], "start", &[]);
        assert_eq!(empty, "zero-state 1\ngame connect4\nrules\norigin start\nactions\n");
        assert_eq!(read(&empty).unwrap().actions, Vec::<Action>::new());
        for (bad, why) in [
            ("", "first line"),
            ("zero-state 1\ngame x\n", "expected 5 lines"),
            ("zero-state 1\ngamex\nrules\norigin start\nactions\n", "line 2"),
            (
                "zero-state 1\ngame x\nrules\norigin start\nactions 1 70000\n",
                "action 2",
            ),
        ] {
            let err = read(bad).unwrap_err();
            assert!(err.to_string().contains(why), "{bad:?}: {err}");
        }
    }
}

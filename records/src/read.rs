//! Reading records from text: tag sections and movetext, with comments, variations, move numbers and
//! annotation glyphs skipped. Syntax only; [`crate::replay`] checks the moves against the rules.

use crate::{GameResult, ReadRecord, Record, RecordError};

/// Reads every record of `text`, in order. Text with no record in it gives none.
pub fn read_records(text: &str) -> Result<Vec<ReadRecord>, RecordError> {
    let mut reader = Reader::default();
    for (index, line) in text.lines().enumerate() {
        reader.line(index + 1, line)?;
    }
    if let Some(from) = reader.comment_from {
        return Err(RecordError::new(from, "a comment '{' opened here is never closed"));
    }
    if reader.variation_depth > 0 {
        return Err(RecordError::new(
            reader.variation_from,
            "a variation '(' opened here is never closed",
        ));
    }
    reader.finish_record()?;
    Ok(reader.records)
}

/// A record being read.
struct Partial {
    read: ReadRecord,
    /// The result token at the end of its movetext, with its line.
    result: Option<(GameResult, usize)>,
}

impl Partial {
    fn new(line: usize) -> Partial {
        Partial {
            read: ReadRecord {
                record: Record {
                    tags: Vec::new(),
                    moves: Vec::new(),
                    result: GameResult::Unknown,
                },
                line,
                move_lines: Vec::new(),
                terminated: false,
            },
            result: None,
        }
    }

    fn has_movetext(&self) -> bool {
        !self.read.record.moves.is_empty() || self.result.is_some()
    }
}

#[derive(Default)]
struct Reader {
    records: Vec<ReadRecord>,
    current: Option<Partial>,
    /// The line a `{` comment still open was opened on.
    comment_from: Option<usize>,
    variation_depth: usize,
    variation_from: usize,
}

impl Reader {
    fn line(&mut self, number: usize, line: &str) -> Result<(), RecordError> {
        if self.comment_from.is_none() && self.variation_depth == 0 {
            if line.starts_with('%') {
                return Ok(());
            }
            let trimmed = line.trim_start();
            if trimmed.starts_with('[') {
                return self.tags(number, trimmed);
            }
        }
        self.movetext(number, line)
    }

    /// One line of tag pairs: `[Name "value"]`, possibly several.
    fn tags(&mut self, number: usize, mut rest: &str) -> Result<(), RecordError> {
        if self.current.as_ref().is_some_and(Partial::has_movetext) {
            self.finish_record()?;
        }
        let current = self.current.get_or_insert_with(|| Partial::new(number));
        while let Some(inner) = rest.strip_prefix('[') {
            let (name, value, after) = parse_tag(inner, number)?;
            let tags = &mut current.read.record.tags;
            if tags.iter().any(|(n, _)| *n == name) {
                return Err(RecordError::new(number, format!("tag {name} given twice")));
            }
            tags.push((name, value));
            rest = after.trim_start();
        }
        if !rest.is_empty() {
            return Err(RecordError::new(
                number,
                format!("unexpected {:?} after a tag", truncated(rest)),
            ));
        }
        Ok(())
    }

    fn movetext(&mut self, number: usize, line: &str) -> Result<(), RecordError> {
        let mut token_start = None;
        for (at, c) in line.char_indices() {
            if self.comment_from.is_some() {
                if c == '}' {
                    self.comment_from = None;
                }
                continue;
            }
            let boundary = c.is_whitespace() || matches!(c, '{' | ';' | '(' | ')');
            if boundary && let Some(start) = token_start.take() {
                self.token(number, &line[start..at])?;
            }
            match c {
                '{' => self.comment_from = Some(number),
                ';' => return Ok(()),
                '(' => {
                    if self.variation_depth == 0 {
                        self.variation_from = number;
                    }
                    self.variation_depth += 1;
                }
                ')' if self.variation_depth == 0 => {
                    return Err(RecordError::new(number, "')' closes no variation"));
                }
                ')' => self.variation_depth -= 1,
                _ if boundary => {}
                _ => {
                    token_start.get_or_insert(at);
                }
            }
        }
        if let Some(start) = token_start {
            self.token(number, &line[start..])?;
        }
        Ok(())
    }

    /// One movetext token outside comments: a move number, a glyph, a result or a move.
    fn token(&mut self, number: usize, token: &str) -> Result<(), RecordError> {
        if self.variation_depth > 0 {
            return Ok(());
        }
        let token = strip_move_number(token);
        if token.is_empty() || (token.starts_with('$') && token[1..].bytes().all(|b| b.is_ascii_digit())) {
            return Ok(());
        }
        // After a result, movetext without tags of its own starts the next record.
        if self.current.as_ref().is_some_and(|c| c.result.is_some()) {
            self.finish_record()?;
        }
        let current = self.current.get_or_insert_with(|| Partial::new(number));
        if let Some(result) = GameResult::parse(token) {
            current.result = Some((result, number));
            return Ok(());
        }
        let mv = token.trim_end_matches(['!', '?']);
        if mv.is_empty() {
            return Err(RecordError::new(number, format!("{token:?} is not a move")));
        }
        current.read.record.moves.push(mv.to_string());
        current.read.move_lines.push(number);
        Ok(())
    }

    /// Ends the record being read: its result from the movetext's end and its `Result` tag, which must agree.
    fn finish_record(&mut self) -> Result<(), RecordError> {
        let Some(mut partial) = self.current.take() else {
            return Ok(());
        };
        let tagged =
            match partial.read.record.tag("Result") {
                None => None,
                Some(text) => Some(GameResult::parse(text.trim()).ok_or_else(|| {
                    RecordError::new(partial.read.line, format!("Result tag {text:?} is not a result"))
                })?),
            };
        partial.read.terminated = partial.result.is_some();
        partial.read.record.result = match (partial.result, tagged) {
            (Some((ended, line)), Some(tag)) if ended != tag => {
                return Err(RecordError::new(
                    line,
                    format!("the movetext ends {ended:?} but the Result tag says {tag:?}"),
                ));
            }
            (Some((ended, _)), _) => ended,
            (None, Some(tag)) => tag,
            (None, None) => GameResult::Unknown,
        };
        self.records.push(partial.read);
        Ok(())
    }
}

/// `12.`, `12...` and `12.c3-d4` lose their move number; anything else is returned whole.
fn strip_move_number(token: &str) -> &str {
    let digits = token.bytes().take_while(u8::is_ascii_digit).count();
    let dots = token[digits..].bytes().take_while(|&b| b == b'.').count();
    if digits > 0 && dots > 0 {
        &token[digits + dots..]
    } else {
        token
    }
}

/// Parses `Name "value"]` (after the `[`) on line `line`, returning the name, the unescaped value and the text
/// after `]`.
fn parse_tag(inner: &str, line: usize) -> Result<(String, String, &str), RecordError> {
    let refused = |reason: String| RecordError::new(line, reason);
    let inner = inner.trim_start();
    let name_len = inner
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(inner.len());
    if name_len == 0 {
        return Err(refused(format!("a tag needs a name: [{}", truncated(inner))));
    }
    let name = &inner[..name_len];
    let rest = inner[name_len..].trim_start();
    let Some(quoted) = rest.strip_prefix('"') else {
        return Err(refused(format!("tag {name}: expected a quoted value")));
    };
    let mut value = String::new();
    let mut chars = quoted.char_indices();
    while let Some((at, c)) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some((_, escaped @ ('"' | '\\'))) => value.push(escaped),
                _ => return Err(refused(format!("tag {name}: a '\\' escapes only '\"' or '\\'"))),
            },
            '"' => {
                let after = quoted[at + 1..].trim_start();
                return match after.strip_prefix(']') {
                    Some(after) => Ok((name.to_string(), value, after)),
                    None => Err(refused(format!("tag {name}: expected ']' after its value"))),
                };
            }
            _ => value.push(c),
        }
    }
    Err(refused(format!("tag {name}: its value's '\"' is never closed")))
}

/// At most 40 characters of `text`, for error messages about untrusted input.
fn truncated(text: &str) -> String {
    match text.char_indices().nth(40) {
        Some((at, _)) => format!("{}...", &text[..at]),
        None => text.to_string(),
    }
}

//! TensorBoard event files of a run (`RUN_DIR/tensorboard/`), written from its records with the report:
//! every training step's numbers from `metrics.jsonl` (`train/loss`, `train/lr`, ... at the optimizer step) and
//! every generation's from `generations.jsonl` (`generation/draw_rate`, `ratings/network/elo`,
//! `scores/greedy/score`, `equal_time/by_side/goats/score`, `phases/selfplay/seconds`, ... at the generation
//! number), each at the wall-clock time it was recorded. Networks are named by their role in the generation
//! (`network`, the newest; `parent`, an earlier one), so that each is one curve over the run. Point TensorBoard
//! at the run (`tensorboard --logdir RUN_DIR/tensorboard`).
//!
//! The file is rewritten whole and atomically from the records, so it never holds a step twice (a step a
//! killed training logged again appears once per line it has) nor a torn record. Its records are TensorBoard's
//! own: each an `Event` protocol buffer (encoded with prost) framed by its length and masked CRC-32C checksums
//! (the `crc` crate).

use crate::ReportError;
use crate::error::writing;
use serde_json::{Map, Value};
use std::path::{Path, PathBuf};
use zero_rundir::summary::GenerationSummary;

/// The event file, in `RUN_DIR/tensorboard/` (TensorBoard reads any file whose name holds `tfevents`).
pub const EVENT_FILE: &str = "events.out.tfevents.zero";

/// `tensorflow.Event`, the fields zero writes.
#[derive(Clone, PartialEq, prost::Message)]
struct Event {
    #[prost(double, tag = "1")]
    wall_time: f64,
    #[prost(int64, tag = "2")]
    step: i64,
    #[prost(oneof = "What", tags = "3, 5")]
    what: Option<What>,
}

#[derive(Clone, PartialEq, prost::Oneof)]
enum What {
    #[prost(string, tag = "3")]
    FileVersion(String),
    #[prost(message, tag = "5")]
    Summary(Summary),
}

/// `tensorflow.Summary`: scalar values only.
#[derive(Clone, PartialEq, prost::Message)]
struct Summary {
    #[prost(message, repeated, tag = "1")]
    value: Vec<SummaryValue>,
}

#[derive(Clone, PartialEq, prost::Message)]
struct SummaryValue {
    #[prost(string, tag = "1")]
    tag: String,
    /// A oneof in TensorFlow's definition, so a zero is written too (a plain proto3 float of 0 would be left
    /// out, and TensorBoard would drop the point).
    #[prost(oneof = "Kind", tags = "2")]
    kind: Option<Kind>,
}

#[derive(Clone, PartialEq, prost::Oneof)]
enum Kind {
    #[prost(float, tag = "2")]
    SimpleValue(f32),
}

const CRC32C: crc::Crc<u32> = crc::Crc::<u32>::new(&crc::CRC_32_ISCSI);

/// TensorFlow's record checksum: CRC-32C, rotated and offset so that a checksum of checksums is not a checksum.
fn masked_crc(bytes: &[u8]) -> u32 {
    let crc = CRC32C.checksum(bytes);
    crc.rotate_right(15).wrapping_add(0xa282_ead8)
}

/// Appends one record: length, its checksum, the event, its checksum.
fn push_record(out: &mut Vec<u8>, event: &Event) {
    let data = prost::Message::encode_to_vec(event);
    let length = (data.len() as u64).to_le_bytes();
    out.extend_from_slice(&length);
    out.extend_from_slice(&masked_crc(&length).to_le_bytes());
    out.extend_from_slice(&data);
    out.extend_from_slice(&masked_crc(&data).to_le_bytes());
}

fn scalars_event(wall_time: f64, step: i64, values: Vec<(String, f32)>) -> Event {
    let value = values
        .into_iter()
        .map(|(tag, value)| SummaryValue {
            tag,
            kind: Some(Kind::SimpleValue(value)),
        })
        .collect();
    Event {
        wall_time,
        step,
        what: Some(What::Summary(Summary { value })),
    }
}

/// Writes the run's event file from its records; returns its path.
pub fn write_events(
    run_dir: &Path,
    generations: &[GenerationSummary],
    steps: &[Map<String, Value>],
) -> Result<PathBuf, ReportError> {
    let dir = zero_rundir::RunPaths::new(run_dir).tensorboard_dir();
    zero_io::create_dir_durably(&dir).map_err(writing(&dir))?;
    // The run's start on the wall clock, for records from before rows carried their time.
    let started = steps
        .iter()
        .find_map(|row| Some(number(row, "unix_time")? - number(row, "elapsed_seconds")?))
        .unwrap_or(0.0);
    let mut bytes = Vec::new();
    let version = Event {
        wall_time: started,
        step: 0,
        what: Some(What::FileVersion("brain.Event:2".to_string())),
    };
    push_record(&mut bytes, &version);
    for row in steps {
        let Some(step) = number(row, "step") else { continue };
        let values = row
            .iter()
            .filter(|(key, _)| !matches!(key.as_str(), "step" | "generation" | "elapsed_seconds" | "unix_time"))
            .filter_map(|(key, value)| Some((format!("train/{key}"), value.as_f64()? as f32)))
            .collect();
        let wall_time = number(row, "unix_time").unwrap_or(started);
        push_record(&mut bytes, &scalars_event(wall_time, step as i64, values));
    }
    for summary in generations {
        let mut values = Vec::new();
        let mut record = serde_json::to_value(summary).map_err(|source| ReportError::Summary {
            path: zero_rundir::RunPaths::new(run_dir).generations_path(),
            source,
        })?;
        name_networks_by_role(&mut record, &summary.network);
        flatten("", &record, &mut values);
        values.retain(|(tag, _)| tag != "generation");
        let values = values
            .into_iter()
            .map(|(tag, v)| {
                (
                    if tag.contains('/') {
                        tag
                    } else {
                        format!("generation/{tag}")
                    },
                    v,
                )
            })
            .collect();
        let wall_time = started + summary.elapsed_seconds;
        push_record(&mut bytes, &scalars_event(wall_time, summary.generation.into(), values));
    }
    let path = dir.join(EVENT_FILE);
    zero_io::write_atomically(&path, &bytes).map_err(writing(&path))?;
    Ok(path)
}

/// The role a network plays in its generation's record: `network` for the generation's own (the newest), `parent`
/// for any earlier one (`gen84` beside `gen85`). Tagged by role, each rating and score is one curve over the
/// run's generations (`ratings/network/elo`) instead of a tag of two points per generation (`ratings/gen85/elo`).
fn role_of(player: &str, network: &str) -> Option<&'static str> {
    let is_generation = player
        .strip_prefix("gen")
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
    if player == network {
        Some("network")
    } else if is_generation {
        Some("parent")
    } else {
        None
    }
}

/// Renames the networks in a generation record's lists (`player` and `opponent` fields) by their role.
fn name_networks_by_role(value: &mut Value, network: &str) {
    match value {
        Value::Object(map) => {
            for (key, item) in map.iter_mut() {
                match item {
                    Value::String(name) if key == "player" || key == "opponent" => {
                        if let Some(role) = role_of(name, network) {
                            *name = role.to_string();
                        }
                    }
                    _ => name_networks_by_role(item, network),
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|item| name_networks_by_role(item, network)),
        _ => {}
    }
}

fn number(row: &Map<String, Value>, key: &str) -> Option<f64> {
    row.get(key).and_then(Value::as_f64)
}

/// Every number inside `value` with its path as the tag (`phases/selfplay/seconds`); list items that name a
/// `player` or an `opponent` are keyed by that name (`ratings/greedy/elo`), other items by their index.
fn flatten(path: &str, value: &Value, out: &mut Vec<(String, f32)>) {
    let join = |key: &str| {
        if path.is_empty() {
            key.to_string()
        } else {
            format!("{path}/{key}")
        }
    };
    match value {
        Value::Number(n) => out.extend(n.as_f64().map(|x| (path.to_string(), x as f32))),
        Value::Object(map) => map.iter().for_each(|(key, v)| flatten(&join(key), v, out)),
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                let name = ["player", "side", "opponent"]
                    .iter()
                    .find_map(|k| item.get(k).and_then(Value::as_str))
                    .map_or_else(|| i.to_string(), str::to_string);
                flatten(&join(&name), item, out);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_is_framed_by_its_length_and_masked_crc32c() {
        // CRC-32C of "123456789" is 0xe3069283 (RFC 3720's check value).
        assert_eq!(CRC32C.checksum(b"123456789"), 0xe306_9283);
        let mut out = Vec::new();
        let event = scalars_event(1.5, 7, vec![("train/loss".to_string(), 0.25)]);
        push_record(&mut out, &event);
        let length = u64::from_le_bytes(out[..8].try_into().unwrap()) as usize;
        assert_eq!(out.len(), 8 + 4 + length + 4);
        assert_eq!(
            u32::from_le_bytes(out[8..12].try_into().unwrap()),
            masked_crc(&out[..8])
        );
        let data = &out[12..12 + length];
        assert_eq!(<Event as prost::Message>::decode(data).unwrap(), event);
        let zero = scalars_event(0.0, 1, vec![("draw_rate".to_string(), 0.0)]);
        let encoded = prost::Message::encode_to_vec(&zero);
        assert!(
            encoded.ends_with(&[0x15, 0, 0, 0, 0]),
            "a zero value is written: {encoded:?}"
        );
    }

    #[test]
    fn networks_are_named_by_role_so_that_each_rating_is_one_curve() {
        let mut record = serde_json::json!({
            "network": "gen12",
            "ratings": [{"player": "gen12", "elo": 300.0}, {"player": "gen11", "elo": 280.0},
                        {"player": "greedy", "elo": 150.0}, {"player": "general", "elo": 1.0}],
            "scores": [{"opponent": "gen11", "score": 0.6}, {"opponent": "random", "score": 1.0}]
        });
        name_networks_by_role(&mut record, "gen12");
        let mut out = Vec::new();
        flatten("", &record, &mut out);
        out.sort_by(|a, b| a.0.cmp(&b.0));
        let tags: Vec<&str> = out.iter().map(|(t, _)| t.as_str()).collect();
        assert_eq!(
            tags,
            [
                "ratings/general/elo",
                "ratings/greedy/elo",
                "ratings/network/elo",
                "ratings/parent/elo",
                "scores/parent/score",
                "scores/random/score"
            ]
        );
        assert_eq!(out[2].1, 300.0);
    }

    #[test]
    fn numbers_are_tagged_by_their_path_and_list_items_by_their_player_or_side() {
        let value = serde_json::json!({
            "draw_rate": 0.5, "network": "gen2", "phases": {"train": {"seconds": 3.0}},
            "ratings": [{"player": "gen2", "elo": 120.0}], "losses": [1.0, 2.0],
            "equal_time": {"score": 0.5, "by_side": [
                {"side": "goats", "opponent": "ab", "score": 0.75},
                {"side": "tigers", "opponent": "ab", "score": 0.25}
            ]}
        });
        let mut out = Vec::new();
        flatten("", &value, &mut out);
        out.sort_by(|a, b| a.0.cmp(&b.0));
        let tags: Vec<&str> = out.iter().map(|(t, _)| t.as_str()).collect();
        assert_eq!(
            tags,
            [
                "draw_rate",
                "equal_time/by_side/goats/score",
                "equal_time/by_side/tigers/score",
                "equal_time/score",
                "losses/0",
                "losses/1",
                "phases/train/seconds",
                "ratings/gen2/elo"
            ]
        );
    }
}

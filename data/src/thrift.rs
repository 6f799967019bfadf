//! A bounded reading of the Thrift-encoded parts of a shard (its footer and its page headers) before the Parquet
//! crate reads them.
//!
//! Thrift's compact protocol spends at least a byte on every value but a boolean field, so reading N bytes of it
//! costs O(N). The Parquet crate (60.1) departs from that in one place: it skips the elements of a list of
//! booleans in a field it does not know without reading a byte, so a list claiming 2^31 of them costs it 2^31
//! steps and lists of such lists never end. Fuzzing found that in a page header, and the footer's decoder skips
//! unknown fields the same way (`docs/reliability.md`). Both are reached before any digest could be checked.
//!
//! Here a list of booleans is refused wherever it appears (no footer or page header holds one), and every value
//! costs at least a byte. That bounds the Parquet crate's work too as long as it reads the bytes as this walk
//! does, which holds when every field it knows has the wire type it expects; so:
//! - the footer is decoded here, the fields a shard reader needs are kept with their types checked, every other
//!   field is dropped, and the Parquet crate decodes the footer re-encoded from what was kept ([`clean_footer`]);
//! - the page headers of a column chunk are walked in place, the fields the Parquet crate reads checked for their
//!   types, and the pages must tile the chunk ([`check_pages`]).

/// Compact-protocol type codes (the low nibble of a field header or a list header).
mod code {
    pub const TRUE: u8 = 1;
    pub const FALSE: u8 = 2;
    pub const BYTE: u8 = 3;
    pub const I16: u8 = 4;
    pub const I32: u8 = 5;
    pub const I64: u8 = 6;
    pub const DOUBLE: u8 = 7;
    pub const BINARY: u8 = 8;
    pub const LIST: u8 = 9;
    pub const SET: u8 = 10;
    pub const MAP: u8 = 11;
    pub const STRUCT: u8 = 12;
    pub const UUID: u8 = 13;
}

/// Nesting deeper than this is refused (Parquet's metadata nests 6 levels at most; its skip stops at 64).
const MAX_DEPTH: u32 = 32;

/// A decoded Thrift value.
#[derive(Debug, Clone, PartialEq)]
enum Value<'a> {
    Bool(bool),
    Byte(u8),
    /// An i16, i32 or i64 (zigzag varints alike on the wire).
    Int(i64),
    Double(&'a [u8]),
    Binary(&'a [u8]),
    Uuid(&'a [u8]),
    /// A list or a set: its element type code and elements.
    List(u8, Vec<Value<'a>>),
    /// Key and value type codes, and the entries.
    Map(u8, u8, Vec<(Value<'a>, Value<'a>)>),
    Struct(Vec<Field<'a>>),
}

#[derive(Debug, Clone, PartialEq)]
struct Field<'a> {
    id: i16,
    /// The wire type code (a list's is [`code::LIST`], a set's [`code::SET`]; booleans [`code::TRUE`]).
    code: u8,
    value: Value<'a>,
}

/// A cursor over compact-protocol bytes.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn new(bytes: &'a [u8]) -> Self {
        Reader { bytes, at: 0 }
    }

    fn remaining(&self) -> usize {
        self.bytes.len() - self.at
    }

    fn take(&mut self, n: usize) -> Result<&'a [u8], Refusal> {
        if n > self.remaining() {
            return Err(Refusal(format!(
                "{n} bytes wanted at byte {}, {} left",
                self.at,
                self.remaining()
            )));
        }
        self.at += n;
        Ok(&self.bytes[self.at - n..self.at])
    }

    fn byte(&mut self) -> Result<u8, Refusal> {
        Ok(self.take(1)?[0])
    }

    fn varint(&mut self) -> Result<u64, Refusal> {
        let mut value = 0u64;
        for shift in (0..70).step_by(7) {
            let byte = self.byte()?;
            value |= u64::from(byte & 0x7f).checked_shl(shift).unwrap_or(0);
            if byte & 0x80 == 0 {
                return Ok(value);
            }
        }
        Err(Refusal(format!(
            "a varint longer than 10 bytes ending at byte {}",
            self.at
        )))
    }

    fn zigzag(&mut self) -> Result<i64, Refusal> {
        let n = self.varint()?;
        Ok((n >> 1) as i64 ^ -((n & 1) as i64))
    }

    /// A count of elements each at least a byte long: more than the bytes left is a lie.
    fn count(&mut self, n: u64) -> Result<usize, Refusal> {
        usize::try_from(n)
            .ok()
            .filter(|&n| n <= self.remaining())
            .ok_or_else(|| {
                Refusal(format!(
                    "{n} elements claimed at byte {}, {} bytes left",
                    self.at,
                    self.remaining()
                ))
            })
    }

    fn value(&mut self, code: u8, depth: u32) -> Result<Value<'a>, Refusal> {
        if depth > MAX_DEPTH {
            return Err(Refusal(format!("nested deeper than {MAX_DEPTH} at byte {}", self.at)));
        }
        Ok(match code {
            code::TRUE | code::FALSE => Value::Bool(self.byte()? == 1),
            code::BYTE => Value::Byte(self.byte()?),
            code::I16 | code::I32 | code::I64 => Value::Int(self.zigzag()?),
            code::DOUBLE => Value::Double(self.take(8)?),
            code::BINARY => {
                let n = self.varint()?;
                let n = usize::try_from(n).map_err(|_| Refusal(format!("a binary of {n} bytes")))?;
                Value::Binary(self.take(n)?)
            }
            code::UUID => Value::Uuid(self.take(16)?),
            code::LIST | code::SET => self.list(depth)?,
            code::MAP => self.map(depth)?,
            code::STRUCT => Value::Struct(self.fields(depth)?),
            other => return Err(Refusal(format!("unknown type {other} at byte {}", self.at))),
        })
    }

    fn list(&mut self, depth: u32) -> Result<Value<'a>, Refusal> {
        let header = self.byte()?;
        if header == 0 {
            // Some writers mark an empty list so; the Parquet crate reads it as one.
            return Ok(Value::List(code::BYTE, Vec::new()));
        }
        let element = header & 0x0f;
        let size = match header >> 4 {
            15 => self.varint()?,
            n => u64::from(n),
        };
        if size > 0 && matches!(element, code::TRUE | code::FALSE) {
            return Err(Refusal(format!("a list of {size} booleans at byte {}", self.at)));
        }
        let size = self.count(size)?;
        let items = (0..size)
            .map(|_| self.value(element, depth + 1))
            .collect::<Result<_, _>>()?;
        Ok(Value::List(element, items))
    }

    fn map(&mut self, depth: u32) -> Result<Value<'a>, Refusal> {
        let size = self.varint()?;
        if size == 0 {
            return Ok(Value::Map(0, 0, Vec::new()));
        }
        let types = self.byte()?;
        let (key, value) = (types >> 4, types & 0x0f);
        if [key, value].iter().any(|c| matches!(*c, code::TRUE | code::FALSE)) {
            return Err(Refusal(format!(
                "a map of {size} entries with booleans at byte {}",
                self.at
            )));
        }
        let size = self.count(size)?;
        let entries = (0..size)
            .map(|_| Ok((self.value(key, depth + 1)?, self.value(value, depth + 1)?)))
            .collect::<Result<_, Refusal>>()?;
        Ok(Value::Map(key, value, entries))
    }

    /// A struct's fields up to its stop byte.
    fn fields(&mut self, depth: u32) -> Result<Vec<Field<'a>>, Refusal> {
        let mut fields = Vec::new();
        let mut last = 0i16;
        loop {
            let header = self.byte()?;
            let code = header & 0x0f;
            // As the Parquet crate reads it: any header whose type nibble is 0 ends the struct.
            if code == 0 {
                return Ok(fields);
            }
            let id = match header >> 4 {
                0 => i16::try_from(self.zigzag()?)
                    .map_err(|_| Refusal(format!("a field id out of range at byte {}", self.at)))?,
                delta => last
                    .checked_add(i16::from(delta))
                    .ok_or_else(|| Refusal(format!("a field id out of range at byte {}", self.at)))?,
            };
            let value = match code {
                code::TRUE => Value::Bool(true),
                code::FALSE => Value::Bool(false),
                _ => self.value(code, depth + 1)?,
            };
            fields.push(Field { id, code, value });
            last = id;
        }
    }
}

/// What a field must be, for the fields the Parquet crate reads by their id.
#[derive(Clone, Copy)]
enum Kind {
    Bool,
    I16,
    I32,
    I64,
    Binary,
    Struct(&'static Schema),
    /// A list of the element kind.
    List(&'static Kind),
}

/// A struct's fields by id, with their names for messages.
struct Schema {
    name: &'static str,
    fields: &'static [(i16, &'static str, Kind)],
}

impl Kind {
    fn code(self) -> u8 {
        match self {
            Kind::Bool => code::TRUE,
            Kind::I16 => code::I16,
            Kind::I32 => code::I32,
            Kind::I64 => code::I64,
            Kind::Binary => code::BINARY,
            Kind::Struct(_) => code::STRUCT,
            Kind::List(_) => code::LIST,
        }
    }

    fn accepts(self, code: u8) -> bool {
        match self {
            Kind::Bool => matches!(code, code::TRUE | code::FALSE),
            _ => code == self.code(),
        }
    }
}

// The footer: what a shard reader needs of Parquet's FileMetaData (parquet.thrift), by field id. Statistics,
// column orders, logical types, encoding statistics, sorting columns and the rest are dropped: the Arrow reader
// does not need them to read whole row groups (the Arrow schema travels in the key-value metadata).
const KEY_VALUE: Schema = Schema {
    name: "KeyValue",
    fields: &[(1, "key", Kind::Binary), (2, "value", Kind::Binary)],
};
const SCHEMA_ELEMENT: Schema = Schema {
    name: "SchemaElement",
    fields: &[
        (1, "type", Kind::I32),
        (2, "type_length", Kind::I32),
        (3, "repetition_type", Kind::I32),
        (4, "name", Kind::Binary),
        (5, "num_children", Kind::I32),
        (6, "converted_type", Kind::I32),
        (7, "scale", Kind::I32),
        (8, "precision", Kind::I32),
        (9, "field_id", Kind::I32),
    ],
};
const COLUMN_META_DATA: Schema = Schema {
    name: "ColumnMetaData",
    fields: &[
        (1, "type", Kind::I32),
        (2, "encodings", Kind::List(&Kind::I32)),
        (3, "path_in_schema", Kind::List(&Kind::Binary)),
        (4, "codec", Kind::I32),
        (5, "num_values", Kind::I64),
        (6, "total_uncompressed_size", Kind::I64),
        (7, "total_compressed_size", Kind::I64),
        (9, "data_page_offset", Kind::I64),
        (10, "index_page_offset", Kind::I64),
        (11, "dictionary_page_offset", Kind::I64),
    ],
};
const COLUMN_CHUNK: Schema = Schema {
    name: "ColumnChunk",
    fields: &[
        (1, "file_path", Kind::Binary),
        (2, "file_offset", Kind::I64),
        (3, "meta_data", Kind::Struct(&COLUMN_META_DATA)),
    ],
};
const ROW_GROUP: Schema = Schema {
    name: "RowGroup",
    fields: &[
        (1, "columns", Kind::List(&Kind::Struct(&COLUMN_CHUNK))),
        (2, "total_byte_size", Kind::I64),
        (3, "num_rows", Kind::I64),
        (5, "file_offset", Kind::I64),
        (6, "total_compressed_size", Kind::I64),
        (7, "ordinal", Kind::I16),
    ],
};
const FILE_META_DATA: Schema = Schema {
    name: "FileMetaData",
    fields: &[
        (1, "version", Kind::I32),
        (2, "schema", Kind::List(&Kind::Struct(&SCHEMA_ELEMENT))),
        (3, "num_rows", Kind::I64),
        (4, "row_groups", Kind::List(&Kind::Struct(&ROW_GROUP))),
        (5, "key_value_metadata", Kind::List(&Kind::Struct(&KEY_VALUE))),
        (6, "created_by", Kind::Binary),
    ],
};

// A page header: the fields the Parquet crate reads by id; any other field it skips, which the walk made safe.
const STATISTICS: Schema = Schema {
    name: "Statistics",
    fields: &[
        (1, "max", Kind::Binary),
        (2, "min", Kind::Binary),
        (3, "null_count", Kind::I64),
        (4, "distinct_count", Kind::I64),
        (5, "max_value", Kind::Binary),
        (6, "min_value", Kind::Binary),
        (7, "is_max_value_exact", Kind::Bool),
        (8, "is_min_value_exact", Kind::Bool),
        (9, "nan_count", Kind::I64),
    ],
};
const DATA_PAGE_HEADER: Schema = Schema {
    name: "DataPageHeader",
    fields: &[
        (1, "num_values", Kind::I32),
        (2, "encoding", Kind::I32),
        (3, "definition_level_encoding", Kind::I32),
        (4, "repetition_level_encoding", Kind::I32),
        (5, "statistics", Kind::Struct(&STATISTICS)),
    ],
};
const INDEX_PAGE_HEADER: Schema = Schema {
    name: "IndexPageHeader",
    fields: &[],
};
const DICTIONARY_PAGE_HEADER: Schema = Schema {
    name: "DictionaryPageHeader",
    fields: &[
        (1, "num_values", Kind::I32),
        (2, "encoding", Kind::I32),
        (3, "is_sorted", Kind::Bool),
    ],
};
const DATA_PAGE_HEADER_V2: Schema = Schema {
    name: "DataPageHeaderV2",
    fields: &[
        (1, "num_values", Kind::I32),
        (2, "num_nulls", Kind::I32),
        (3, "num_rows", Kind::I32),
        (4, "encoding", Kind::I32),
        (5, "definition_levels_byte_length", Kind::I32),
        (6, "repetition_levels_byte_length", Kind::I32),
        (7, "is_compressed", Kind::Bool),
        (8, "statistics", Kind::Struct(&STATISTICS)),
    ],
};
const PAGE_HEADER: Schema = Schema {
    name: "PageHeader",
    fields: &[
        (1, "type", Kind::I32),
        (2, "uncompressed_page_size", Kind::I32),
        (3, "compressed_page_size", Kind::I32),
        (4, "crc", Kind::I32),
        (5, "data_page_header", Kind::Struct(&DATA_PAGE_HEADER)),
        (6, "index_page_header", Kind::Struct(&INDEX_PAGE_HEADER)),
        (7, "dictionary_page_header", Kind::Struct(&DICTIONARY_PAGE_HEADER)),
        (8, "data_page_header_v2", Kind::Struct(&DATA_PAGE_HEADER_V2)),
    ],
};

/// Checks the fields `schema` names for their kinds; with `drop_others`, returns only those (sorted by id),
/// else all of them.
fn checked<'a>(fields: Vec<Field<'a>>, schema: &Schema, drop_others: bool) -> Result<Vec<Field<'a>>, Refusal> {
    let mut kept = Vec::with_capacity(fields.len());
    for mut field in fields {
        let Some(&(_, name, kind)) = schema.fields.iter().find(|(id, _, _)| *id == field.id) else {
            if !drop_others {
                kept.push(field);
            }
            continue;
        };
        let at = || format!("{}.{name}", schema.name);
        if !kind.accepts(field.code) {
            return Err(Refusal(format!(
                "{} has wire type {}, not {}",
                at(),
                field.code,
                kind.code()
            )));
        }
        field.value = checked_value(field.value, kind, drop_others).map_err(|e| Refusal(format!("{}: {e}", at())))?;
        kept.push(field);
    }
    if drop_others {
        kept.sort_by_key(|f| f.id);
    }
    Ok(kept)
}

fn checked_value<'a>(value: Value<'a>, kind: Kind, drop_others: bool) -> Result<Value<'a>, Refusal> {
    match (kind, value) {
        (Kind::Struct(schema), Value::Struct(fields)) => Ok(Value::Struct(checked(fields, schema, drop_others)?)),
        (Kind::List(element), Value::List(code, items)) => {
            if !items.is_empty() && !element.accepts(code) {
                return Err(Refusal(format!("elements of wire type {code}, not {}", element.code())));
            }
            let items = items
                .into_iter()
                .map(|item| checked_value(item, *element, drop_others))
                .collect::<Result<_, _>>()?;
            Ok(Value::List(element.code(), items))
        }
        (_, value) => Ok(value),
    }
}

/// Why a footer or a page header was refused: what and at which byte.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub(crate) struct Refusal(String);

/// The footer (a Thrift `FileMetaData`) reduced to the fields a shard reader needs, each of the type the Parquet
/// crate expects, re-encoded; or why it cannot be a footer.
pub(crate) fn clean_footer(footer: &[u8]) -> Result<Vec<u8>, Refusal> {
    let mut reader = Reader::new(footer);
    let fields = reader.fields(0)?;
    let kept = checked(fields, &FILE_META_DATA, true)?;
    let mut out = Vec::with_capacity(footer.len());
    write_fields(&mut out, &kept);
    Ok(out)
}

/// Walks the pages of a column chunk (its bytes from its first page to its end): every header checked as the
/// Parquet crate will read it, and the pages (header and body) must fill the chunk exactly.
pub(crate) fn check_pages(chunk: &[u8]) -> Result<(), Refusal> {
    let mut at = 0usize;
    let mut page = 0usize;
    while at < chunk.len() {
        let mut reader = Reader::new(&chunk[at..]);
        let fields = reader
            .fields(0)
            .map_err(|e| Refusal(format!("page {page} at byte {at}: {e}")))?;
        let fields =
            checked(fields, &PAGE_HEADER, false).map_err(|e| Refusal(format!("page {page} at byte {at}: {e}")))?;
        let size = fields
            .iter()
            .rev()
            .find(|f| f.id == 3)
            .and_then(|f| match f.value {
                Value::Int(n) => usize::try_from(n).ok(),
                _ => None,
            })
            .ok_or_else(|| {
                Refusal(format!(
                    "page {page} at byte {at}: no compressed_page_size of 0 or more"
                ))
            })?;
        at = at
            .checked_add(reader.at)
            .and_then(|a| a.checked_add(size))
            .filter(|&end| end <= chunk.len())
            .ok_or_else(|| {
                Refusal(format!(
                    "page {page} at byte {at}: {size} bytes reach past its chunk's {}",
                    chunk.len()
                ))
            })?;
        page += 1;
    }
    Ok(())
}

fn write_varint(out: &mut Vec<u8>, mut n: u64) {
    while n >= 0x80 {
        out.push((n as u8) | 0x80);
        n >>= 7;
    }
    out.push(n as u8);
}

fn write_zigzag(out: &mut Vec<u8>, n: i64) {
    write_varint(out, ((n << 1) ^ (n >> 63)) as u64);
}

/// A struct's fields and its stop byte.
fn write_fields(out: &mut Vec<u8>, fields: &[Field]) {
    let mut last = 0i16;
    for field in fields {
        let code = match field.value {
            Value::Bool(b) => {
                if b {
                    code::TRUE
                } else {
                    code::FALSE
                }
            }
            _ => field.code,
        };
        match field.id.checked_sub(last) {
            Some(delta @ 1..=15) => out.push(((delta as u8) << 4) | code),
            _ => {
                out.push(code);
                write_zigzag(out, i64::from(field.id));
            }
        }
        if !matches!(field.value, Value::Bool(_)) {
            write_value(out, &field.value);
        }
        last = field.id;
    }
    out.push(0);
}

fn write_value(out: &mut Vec<u8>, value: &Value) {
    match value {
        Value::Bool(b) => out.push(if *b { 1 } else { 2 }),
        Value::Byte(b) => out.push(*b),
        Value::Int(n) => write_zigzag(out, *n),
        Value::Double(bytes) | Value::Uuid(bytes) => out.extend_from_slice(bytes),
        Value::Binary(bytes) => {
            write_varint(out, bytes.len() as u64);
            out.extend_from_slice(bytes);
        }
        Value::List(element, items) => {
            if items.len() < 15 {
                out.push(((items.len() as u8) << 4) | element);
            } else {
                out.push(0xf0 | element);
                write_varint(out, items.len() as u64);
            }
            items.iter().for_each(|item| write_value(out, item));
        }
        Value::Map(key, value, entries) => {
            write_varint(out, entries.len() as u64);
            if !entries.is_empty() {
                out.push((key << 4) | value);
            }
            for (k, v) in entries {
                write_value(out, k);
                write_value(out, v);
            }
        }
        Value::Struct(fields) => write_fields(out, fields),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A field header with a small delta.
    fn header(delta: u8, code: u8) -> u8 {
        (delta << 4) | code
    }

    #[test]
    fn a_footer_round_trips_through_the_walk_and_keeps_what_readers_need() {
        // FileMetaData { 1: version 2, 3: num_rows 7, 5: [KeyValue { 1: "k", 2: "v" }], 6: "me", 7: [] }
        let mut footer = vec![header(1, code::I32), 4];
        footer.extend([header(2, code::I64), 14]);
        footer.extend([header(2, code::LIST), 0x1c]);
        footer.extend([header(1, code::BINARY), 1, b'k', header(1, code::BINARY), 1, b'v', 0]);
        footer.extend([header(1, code::BINARY), 2, b'm', b'e']);
        footer.extend([header(1, code::LIST), 0x0c, 0]);
        let cleaned = clean_footer(&footer).unwrap();
        // Field 7 (column orders) is dropped; the rest is written back as it was.
        assert_eq!(
            cleaned,
            footer[..footer.len() - 3]
                .iter()
                .chain(&[0])
                .copied()
                .collect::<Vec<_>>()
        );
    }

    #[test]
    fn lists_of_booleans_are_refused_wherever_they_are() {
        // An unknown field 20 holding a list of 2^31 - 1 booleans: the Parquet crate would loop over them all.
        let mut footer = vec![code::LIST];
        write_zigzag(&mut footer, 20);
        footer.push(0xf1);
        write_varint(&mut footer, (1 << 31) - 1);
        footer.push(0);
        let refusal = clean_footer(&footer).unwrap_err();
        assert!(
            refusal.to_string().contains("a list of 2147483647 booleans"),
            "{refusal}"
        );
        let refusal = check_pages(&footer).unwrap_err();
        assert!(refusal.to_string().contains("booleans"), "{refusal}");
    }

    #[test]
    fn counts_beyond_the_bytes_left_and_deep_nesting_are_refused() {
        // A list claiming a million structs in three bytes.
        let mut footer = vec![header(1, code::LIST), 0xfc];
        write_varint(&mut footer, 1_000_000);
        assert!(
            clean_footer(&footer)
                .unwrap_err()
                .to_string()
                .contains("1000000 elements claimed")
        );
        // Lists in lists, 40 deep.
        let mut deep = vec![header(1, code::LIST)];
        deep.extend(std::iter::repeat_n(0x19, 40));
        assert!(clean_footer(&deep).unwrap_err().to_string().contains("nested deeper"));
    }

    #[test]
    fn a_known_field_of_another_type_is_refused_and_named() {
        // FileMetaData.num_rows as a list.
        let footer = [header(3, code::LIST), 0x15, 2, 0];
        let refusal = clean_footer(&footer).unwrap_err();
        assert!(
            refusal.to_string().contains("FileMetaData.num_rows has wire type 9"),
            "{refusal}"
        );
    }

    #[test]
    fn pages_must_fill_their_chunk() {
        // PageHeader { 1: type 0, 2: 3 bytes, 3: 3 bytes }, then 3 bytes of data: twice.
        let page = [
            header(1, code::I32),
            0,
            header(1, code::I32),
            6,
            header(1, code::I32),
            6,
            0,
            9,
            9,
            9,
        ];
        let chunk: Vec<u8> = page.iter().chain(&page).copied().collect();
        check_pages(&chunk).unwrap();
        let refusal = check_pages(&chunk[..chunk.len() - 1]).unwrap_err();
        assert!(
            refusal.to_string().contains("page 1 at byte 10: 3 bytes reach past"),
            "{refusal}"
        );
        let refusal = check_pages(&page[..6]).unwrap_err();
        assert!(refusal.to_string().contains("page 0 at byte 0"), "{refusal}");
    }
}

//! The tablebase file: a versioned header, then the kept values ([`crate::table`]).
//!
//! Layout: the 16 bytes `zero-tablebase\n\0`; the header's length in bytes (8, little-endian); the header, JSON
//! ([`Header`]: format version, game, rules, the layers held with their class counts, the body's SHA-256); the
//! body, each layer's kept values as two-byte little-endian codes ([`crate::retro::Value::encode`]), layers in
//! the header's order. A whole tablebase is 185,892,280 bytes of body. Files are written atomically; opening one
//! checks everything the header promises (format, game, rules, sizes, checksum, that every entry is a value),
//! so that a truncated, foreign or damaged file is refused and never answers a probe.

use crate::classes::ClassCounts;
use crate::index::{LAYERS, LayerIndex, Orbits};
use crate::table::{KeptLayer, Table};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

const MAGIC: &[u8; 16] = b"zero-tablebase\n\0";
/// The version of the layout above; a file of another is refused.
pub const FORMAT_VERSION: u32 = 1;
/// The game and rules a tablebase holds.
pub const GAME: &str = "baghchal";
pub const RULES: &str = "repetition=threefold-draw";
const CONTENT: &str = "sliding phase: all 20 goats placed, 0-4 captured, either side to move; one block of values \
                       per symmetry orbit of tiger sets";
/// A header is a few kilobytes; a length past this is damage, not a header.
const MAX_HEADER_BYTES: u64 = 1 << 20;

/// What a tablebase file says about itself.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Header {
    pub format: u32,
    pub game: String,
    pub rules: String,
    pub content: String,
    /// The layers held, in the body's order (a finished tablebase holds all five; a solve's partial file the
    /// ones solved so far).
    pub layers: Vec<LayerHeader>,
    pub body_sha256: String,
    /// The program that wrote it.
    pub written_by: String,
}

/// One layer of the file: its capture count, the values it keeps, and its classes by value, goats to move
/// first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LayerHeader {
    pub captured: u32,
    pub values: u64,
    pub classes: [ClassCounts; 2],
}

/// Why a tablebase file could not be written or used. Every variant names the file.
#[derive(Debug, thiserror::Error)]
pub enum TablebaseError {
    #[error("{path}: {source}")]
    Io { path: PathBuf, source: io::Error },
    #[error("{path}: not a file (a tablebase is a regular file)")]
    NotAFile { path: PathBuf },
    #[error("{path}: not a zero tablebase file (it does not start with zero's tablebase mark)")]
    Foreign { path: PathBuf },
    #[error("{path}: tablebase format version {found}; this zero reads version {FORMAT_VERSION} (solve it again)")]
    Version { path: PathBuf, found: u32 },
    #[error("{path}: a tablebase of {found}; this one must be {expected}")]
    OtherRules {
        path: PathBuf,
        found: String,
        expected: String,
    },
    #[error("{path}: {bytes} bytes where the header promises {expected}: the file is truncated or has bytes added")]
    WrongSize { path: PathBuf, bytes: u64, expected: u64 },
    #[error("{path}: damaged header: {reason}")]
    Header { path: PathBuf, reason: String },
    #[error("{path}: the body's SHA-256 is not the one its header records: the file is damaged")]
    Checksum { path: PathBuf },
    #[error("{path}: entry {entry} of layer {captured} holds no value (code {code:#06x}): the file is damaged")]
    Undecided {
        path: PathBuf,
        captured: u32,
        entry: usize,
        code: u16,
    },
    #[error("{path}: holds layers {held:?}; a finished tablebase holds all of 0-4 (was its solve interrupted?)")]
    Incomplete { path: PathBuf, held: Vec<u32> },
    #[error("solving: {0}")]
    Solve(#[from] crate::retro::SolveError),
    #[error("no tablebase file named, and no home directory for the default one (set ZERO_CACHE)")]
    NoDefault,
    #[error(
        "no tablebase at {path} yet: `zero solve baghchal` writes it there (about 5 minutes on two cores), or name one"
    )]
    NotSolved { path: PathBuf },
}

fn io_error(path: &Path) -> impl FnOnce(io::Error) -> TablebaseError + '_ {
    move |source| TablebaseError::Io {
        path: path.to_path_buf(),
        source,
    }
}

impl Table {
    /// Writes the table atomically to `path`.
    pub fn write(&self, path: &Path) -> Result<Header, TablebaseError> {
        let mut layers = Vec::new();
        let mut hasher = Sha256::new();
        for (c, layer) in self.held() {
            for chunk in layer.values.chunks(CHUNK) {
                hasher.update(bytes_of(chunk));
            }
            layers.push(LayerHeader {
                captured: c,
                values: layer.values.len() as u64,
                classes: layer.classes,
            });
        }
        let header = Header {
            format: FORMAT_VERSION,
            game: GAME.into(),
            rules: RULES.into(),
            content: CONTENT.into(),
            layers,
            body_sha256: format!("{:x}", hasher.finalize()),
            written_by: format!("zero-tablebase {}", env!("CARGO_PKG_VERSION")),
        };
        let json = serde_json::to_vec_pretty(&header).expect("a header serialises");
        zero_io::write_atomically_with(path, |file| {
            let mut out = BufWriter::with_capacity(1 << 20, file);
            out.write_all(MAGIC)?;
            out.write_all(&(json.len() as u64).to_le_bytes())?;
            out.write_all(&json)?;
            for (_, layer) in self.held() {
                for chunk in layer.values.chunks(CHUNK) {
                    out.write_all(&bytes_of(chunk))?;
                }
            }
            out.flush()
        })
        .map_err(io_error(path))?;
        Ok(header)
    }

    /// Opens a finished tablebase: all five layers, every check passed.
    pub fn open(path: &Path) -> Result<(Table, Header), TablebaseError> {
        let (table, header) = Table::open_partial(path)?;
        let held: Vec<u32> = header.layers.iter().map(|l| l.captured).collect();
        if held.len() != LAYERS as usize {
            return Err(TablebaseError::Incomplete {
                path: path.into(),
                held,
            });
        }
        Ok((table, header))
    }

    /// Opens a tablebase file that may hold only some layers (a solve's partial file): layers 4 down to some
    /// `c`, in that order.
    pub fn open_partial(path: &Path) -> Result<(Table, Header), TablebaseError> {
        let file = File::open(path).map_err(io_error(path))?;
        let meta = file.metadata().map_err(io_error(path))?;
        if !meta.is_file() {
            return Err(TablebaseError::NotAFile { path: path.into() });
        }
        let mut reader = BufReader::with_capacity(1 << 20, file);
        let orbits = Orbits::new(&LayerIndex::new(0));
        let (header, body_start) = read_header(&mut reader, &orbits, path)?;
        let body: u64 = header.layers.iter().map(|l| l.values * 2).sum();
        let expected = body_start + body;
        if meta.len() != expected {
            return Err(TablebaseError::WrongSize {
                path: path.into(),
                bytes: meta.len(),
                expected,
            });
        }
        let mut layers: Vec<Option<KeptLayer>> = vec![None; LAYERS as usize];
        let mut hasher = Sha256::new();
        let mut bytes = vec![0u8; CHUNK * 2];
        for layer in &header.layers {
            let mut values = Vec::with_capacity(layer.values as usize);
            while values.len() < layer.values as usize {
                let take = (layer.values as usize - values.len()).min(CHUNK);
                let chunk = &mut bytes[..take * 2];
                reader.read_exact(chunk).map_err(io_error(path))?;
                hasher.update(&*chunk);
                values.extend(chunk.chunks_exact(2).map(|b| u16::from_le_bytes([b[0], b[1]])));
            }
            layers[layer.captured as usize] = Some(KeptLayer {
                index: LayerIndex::new(layer.captured),
                values,
                classes: layer.classes,
            });
        }
        if format!("{:x}", hasher.finalize()) != header.body_sha256 {
            return Err(TablebaseError::Checksum { path: path.into() });
        }
        let table = Table { orbits, layers };
        table.check_entries(path)?;
        Ok((table, header))
    }

    /// Every held entry decodes to a value.
    fn check_entries(&self, path: &Path) -> Result<(), TablebaseError> {
        for (c, layer) in self.held() {
            if let Some(entry) = layer
                .values
                .iter()
                .position(|&code| crate::retro::Value::decode(code).is_none())
            {
                return Err(TablebaseError::Undecided {
                    path: path.into(),
                    captured: c,
                    entry,
                    code: layer.values[entry],
                });
            }
        }
        Ok(())
    }
}

/// Reads and checks the mark and the header (format, game, rules, and layers that this program numbers the
/// same way), and says where the body starts.
fn read_header(reader: &mut impl Read, orbits: &Orbits, path: &Path) -> Result<(Header, u64), TablebaseError> {
    let mut mark = [0u8; 16];
    match reader.read_exact(&mut mark) {
        Ok(()) if &mark == MAGIC => {}
        Ok(()) => return Err(TablebaseError::Foreign { path: path.into() }),
        Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => {
            return Err(TablebaseError::Foreign { path: path.into() });
        }
        Err(e) => return Err(io_error(path)(e)),
    }
    let damaged = |reason: String| TablebaseError::Header {
        path: path.into(),
        reason,
    };
    let mut len = [0u8; 8];
    reader
        .read_exact(&mut len)
        .map_err(|e| damaged(format!("its length: {e}")))?;
    let len = u64::from_le_bytes(len);
    if len > MAX_HEADER_BYTES {
        return Err(damaged(format!(
            "{len} bytes long, past the {MAX_HEADER_BYTES} a header can be"
        )));
    }
    let mut json = vec![0u8; len as usize];
    reader
        .read_exact(&mut json)
        .map_err(|e| damaged(format!("{len} bytes: {e}")))?;
    let header: Header = serde_json::from_slice(&json).map_err(|e| damaged(e.to_string()))?;
    if header.format != FORMAT_VERSION {
        return Err(TablebaseError::Version {
            path: path.into(),
            found: header.format,
        });
    }
    if header.game != GAME || header.rules != RULES {
        return Err(TablebaseError::OtherRules {
            path: path.into(),
            found: format!("{} under {}", header.game, header.rules),
            expected: format!("{GAME} under {RULES}"),
        });
    }
    check_layers(&header, orbits, path)?;
    Ok((header, MAGIC.len() as u64 + 8 + len))
}

/// The layers held are 4 down to some `c`, each with the number of values this program keeps for it.
fn check_layers(header: &Header, orbits: &Orbits, path: &Path) -> Result<(), TablebaseError> {
    let damaged = |reason: String| TablebaseError::Header {
        path: path.into(),
        reason,
    };
    if header.layers.len() > LAYERS as usize {
        return Err(damaged(format!(
            "{} layers, where there are {LAYERS}",
            header.layers.len()
        )));
    }
    for (k, layer) in header.layers.iter().enumerate() {
        let due = LAYERS - 1 - k as u32;
        let values = (orbits.kept().len() * LayerIndex::new(due).tiger_block()) as u64;
        if (layer.captured, layer.values) != (due, values) {
            return Err(damaged(format!(
                "layer entry {k} is layer {} with {} values, where layer {due} with {values} was due",
                layer.captured, layer.values
            )));
        }
    }
    Ok(())
}

/// Values converted to or from bytes at a time.
const CHUNK: usize = 1 << 16;

fn bytes_of(values: &[u16]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file holding the mark and `header`, and no body.
    fn header_only(dir: &Path, header: &Header) -> PathBuf {
        let json = serde_json::to_vec(header).unwrap();
        let mut bytes = MAGIC.to_vec();
        bytes.extend((json.len() as u64).to_le_bytes());
        bytes.extend(json);
        let path = dir.join("header.tb");
        std::fs::write(&path, bytes).unwrap();
        path
    }

    #[test]
    fn a_header_listing_layers_out_of_order_or_too_many_is_refused_as_damaged() {
        let dir = tempfile::tempdir().unwrap();
        let layer = |captured| LayerHeader {
            captured,
            values: 0,
            classes: Default::default(),
        };
        let mut header = Header {
            format: FORMAT_VERSION,
            game: GAME.into(),
            rules: RULES.into(),
            content: CONTENT.into(),
            layers: (0..6).map(layer).collect(),
            body_sha256: String::new(),
            written_by: String::new(),
        };
        for (layers, says) in [
            ((0..6).map(layer).collect::<Vec<_>>(), "6 layers, where there are 5"),
            (
                vec![layer(3)],
                "layer entry 0 is layer 3 with 0 values, where layer 4 with",
            ),
        ] {
            header.layers = layers;
            let err = Table::open_partial(&header_only(dir.path(), &header)).unwrap_err();
            assert!(matches!(err, TablebaseError::Header { .. }), "{err}");
            assert!(
                err.to_string().contains(says) && err.to_string().contains("header.tb"),
                "{err}"
            );
        }
    }
}

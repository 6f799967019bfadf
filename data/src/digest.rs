//! A SHA-256 of a shard file's row groups (every byte from its start to the end of its last row group), kept in
//! its footer (`zero.data_sha256`, as `BYTES:HEX`), and its check before the file's rows are first read. Parquet pages carry
//! no checksum as this crate writes them, so without it a flipped byte in a column that still decodes would be
//! read as data. Files written before it have no digest and are read as they are.

use crate::error::DataError;
use arrow_array::RecordBatch;
use arrow_schema::SchemaRef;
use parquet::arrow::ArrowWriter;
use parquet::errors::ParquetError;
use parquet::file::metadata::KeyValue;
use parquet::file::properties::WriterProperties;
use sha2::{Digest, Sha256};
use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::Path;

/// The footer key of the digest.
pub const DATA_SHA256_KEY: &str = "zero.data_sha256";

/// Passes writes on to `inner`, counting every byte into a SHA-256.
struct Digesting<W> {
    inner: W,
    hasher: Sha256,
    bytes: u64,
}

impl<W: Write> Write for Digesting<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.hasher.update(&buf[..n]);
        self.bytes += n as u64;
        Ok(n)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// An Arrow writer into a shard file whose footer gets the digest of everything before it.
pub(crate) struct DigestedWriter<'a> {
    writer: ArrowWriter<Digesting<&'a mut File>>,
}

impl<'a> DigestedWriter<'a> {
    pub fn new(file: &'a mut File, schema: SchemaRef, properties: WriterProperties) -> Result<Self, ParquetError> {
        let out = Digesting {
            inner: file,
            hasher: Sha256::new(),
            bytes: 0,
        };
        Ok(DigestedWriter {
            writer: ArrowWriter::try_new(out, schema, Some(properties))?,
        })
    }

    pub fn write(&mut self, batch: &RecordBatch) -> Result<(), ParquetError> {
        self.writer.write(batch)
    }

    /// Writes the last row group, then the footer with the digest of the row groups (what comes between them
    /// and the footer, the page indexes, is not read by zero).
    pub fn close(mut self) -> Result<(), ParquetError> {
        self.writer.flush()?;
        self.writer.sync()?;
        let written = self.writer.inner();
        let digest = format!("{}:{}", written.bytes, hex(&written.hasher.clone().finalize()));
        self.writer
            .append_key_value_metadata(KeyValue::new(DATA_SHA256_KEY.to_string(), digest));
        self.writer.close().map(drop)
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Checks `file` (of `length` bytes) against the digest its footer records (`BYTES:HEX`).
pub(crate) fn verify(path: &Path, file: &mut File, length: u64, recorded: &str) -> Result<(), DataError> {
    let corrupt = |reason: String| DataError::corrupt(path, ParquetError::General(reason));
    let (bytes, hex_digest) = recorded
        .split_once(':')
        .and_then(|(n, h)| Some((n.parse::<u64>().ok()?, h)))
        .ok_or_else(|| corrupt(format!("a malformed {DATA_SHA256_KEY} {recorded:?}")))?;
    if bytes > length {
        return Err(corrupt(format!(
            "its digest covers {bytes} bytes of a file of {length}"
        )));
    }
    file.seek(SeekFrom::Start(0)).map_err(|e| DataError::io(path, e))?;
    let mut hasher = Sha256::new();
    io::copy(&mut file.take(bytes), &mut hasher).map_err(|e| DataError::io(path, e))?;
    let found = hex(&hasher.finalize());
    if found != hex_digest {
        return Err(corrupt(format!(
            "its data does not match the digest in its footer (sha256 {found}, recorded {hex_digest}): damaged"
        )));
    }
    Ok(())
}

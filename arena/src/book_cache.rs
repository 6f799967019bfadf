//! Opening books kept between commands. A book depends only on the game, its rules, the book's size, seed and
//! line lengths, and the judge that balanced it; judging one costs up to tens of seconds of a core (a Bagh Chal
//! book of 64, eight plies deep), so a run or `zero eval` that asks for a book judged before takes it from here.
//!
//! Each book is one JSON file in `$ZERO_CACHE/books` (default `~/.cache/zero/books`, beside the set-up's venv),
//! written atomically and named by a hash of its [`BookKey`]; the file holds the key itself, which a read
//! compares in full. The key names the build that judged the book (zero's version and git revision), since a
//! change to a heuristic or to the judge changes which openings pass: a new build judges its books once more.
//! A file that cannot be read, belongs to another key or does not replay is judged again and replaced; a cache
//! that cannot be written costs only the next command's judging, never the command itself.

use crate::openings::{BALANCE_LIMIT, BookProgress, BookRequest, OpeningBook, TRIES_PER_OPENING};
use serde::{Deserialize, Serialize};
use std::hash::Hasher;
use std::path::{Path, PathBuf};
use zero_games::Heuristic;

/// Bumped when the file's layout or the way a book is drawn from its key changes.
const FORMAT: u32 = 1;

/// Which book: everything the openings depend on.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BookKey {
    pub format: u32,
    /// The build that judged it: zero's version and git revision.
    pub build: String,
    pub game: String,
    pub rules: Vec<String>,
    pub count: usize,
    pub seed: u64,
    pub min_plies: u32,
    pub max_plies: u32,
    pub judge_depth: u32,
    pub balance_limit: f32,
    pub tries_per_opening: usize,
}

/// Where a book came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BookSource {
    /// Read from this cache file.
    Cached(PathBuf),
    /// Judged now; `note` says why the cache did not have it and whether it does now.
    Judged { note: String },
}

/// The directory of cached books.
#[derive(Debug, Clone)]
pub struct BookCache {
    dir: PathBuf,
    build: String,
}

#[derive(Serialize, Deserialize)]
struct CachedBook {
    key: BookKey,
    book: OpeningBook,
}

impl BookCache {
    /// A cache in `dir` for books judged by `build` (zero's version line).
    pub fn new(dir: PathBuf, build: &str) -> Self {
        BookCache {
            dir,
            build: build.trim().to_string(),
        }
    }

    /// The cache under `$ZERO_CACHE/books`, or `~/.cache/zero/books`; none where neither can be named.
    pub fn in_zero_cache(build: &str) -> Option<Self> {
        zero_io::zero_cache_dir().map(|dir| Self::new(dir.join("books"), build))
    }

    /// The key of the book `request` asks for under `rules`.
    pub fn key<G: Heuristic>(&self, rules: &G::Rules, request: BookRequest) -> BookKey {
        BookKey {
            format: FORMAT,
            build: self.build.clone(),
            game: G::NAME.to_string(),
            rules: G::describe_rules(rules),
            count: request.count,
            seed: request.seed,
            min_plies: request.min_plies,
            max_plies: request.max_plies,
            judge_depth: G::BOOK_BALANCE_DEPTH,
            balance_limit: BALANCE_LIMIT,
            tries_per_opening: TRIES_PER_OPENING,
        }
    }

    /// The file that holds (or would hold) the book of `key`.
    pub fn path_of(&self, key: &BookKey) -> PathBuf {
        let text = serde_json::to_string(key).expect("a key serialises");
        let mut hasher = rustc_hash::FxHasher::default();
        hasher.write(text.as_bytes());
        self.dir.join(format!("{}-{:016x}.json", key.game, hasher.finish()))
    }

    /// The book `request` asks for: from the cache when it holds it, else judged now (calling `progress` as
    /// [`OpeningBook::generate_reporting`] does) and kept for next time.
    pub fn book<G: Heuristic>(
        &self,
        rules: &G::Rules,
        request: BookRequest,
        progress: &mut dyn FnMut(BookProgress),
    ) -> (OpeningBook, BookSource) {
        let key = self.key::<G>(rules, request);
        let path = self.path_of(&key);
        let missing = match read(&path, &key) {
            Ok(book) if book.validate::<G>(rules).is_ok() => return (book, BookSource::Cached(path)),
            Ok(_) => format!("{} does not replay under these rules", path.display()),
            Err(why) => why.to_string(),
        };
        let book = OpeningBook::generate_reporting::<G>(rules, request, progress);
        let kept = write(&path, &key, &book)
            .map(|()| format!("kept in {}", path.display()))
            .unwrap_or_else(|e| format!("not kept: {e}"));
        (
            book,
            BookSource::Judged {
                note: format!("{missing}; {kept}"),
            },
        )
    }
}

/// Why the cache holds no book for a key.
#[derive(Debug, thiserror::Error)]
enum NotCached {
    #[error("not judged before")]
    Missing,
    #[error("{path}: {source}")]
    Unreadable { path: String, source: std::io::Error },
    #[error("{path}: {source}")]
    Malformed { path: String, source: serde_json::Error },
    #[error("{path} holds another book")]
    OtherBook { path: String },
}

/// The book `path` holds for `key`, or why it holds none.
fn read(path: &Path, key: &BookKey) -> Result<OpeningBook, NotCached> {
    let shown = || path.display().to_string();
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err(NotCached::Missing),
        Err(source) => return Err(NotCached::Unreadable { path: shown(), source }),
    };
    let cached: CachedBook =
        serde_json::from_str(&text).map_err(|source| NotCached::Malformed { path: shown(), source })?;
    if cached.key != *key {
        return Err(NotCached::OtherBook { path: shown() });
    }
    Ok(cached.book)
}

fn write(path: &Path, key: &BookKey, book: &OpeningBook) -> std::io::Result<()> {
    let cached = CachedBook {
        key: key.clone(),
        book: book.clone(),
    };
    let text = serde_json::to_string_pretty(&cached).expect("a cached book serialises") + "\n";
    if let Some(dir) = path.parent() {
        zero_io::create_dir_durably(dir)?;
    }
    zero_io::write_atomically(path, text.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;
    use zero_games::Game;
    use zero_games::tours::Tours;

    fn tours_rules() -> <Tours as Game>::Rules {
        Tours::parse_rules(None, &[]).unwrap()
    }

    fn counting(count: &mut usize) -> impl FnMut(BookProgress) + '_ {
        move |_| *count += 1
    }

    #[test]
    fn a_book_is_judged_once_and_then_read_back_the_same() {
        let dir = tempfile::tempdir().unwrap();
        let cache = BookCache::new(dir.path().join("books"), "zero test");
        let rules = tours_rules();
        let request = BookRequest::new(3, 5);
        let mut judged = 0;
        let (first, source) = cache.book::<Tours>(&rules, request, &mut counting(&mut judged));
        assert!(judged > 0, "the first book is judged");
        assert!(matches!(source, BookSource::Judged { ref note } if note.contains("not judged before")));
        assert_eq!(first, OpeningBook::generate::<Tours>(&rules, 3, 5, 2, 6));
        let mut again = 0;
        let (second, source) = cache.book::<Tours>(&rules, request, &mut counting(&mut again));
        assert_eq!((second, again), (first.clone(), 0));
        assert_eq!(
            source,
            BookSource::Cached(cache.path_of(&cache.key::<Tours>(&rules, request)))
        );
        // Another seed, size or build is another book.
        for (other, request) in [
            (cache.clone(), BookRequest::new(3, 6)),
            (cache.clone(), BookRequest::new(4, 5)),
            (BookCache::new(dir.path().join("books"), "zero other"), request),
        ] {
            let (_, source) = other.book::<Tours>(&rules, request, &mut |_| {});
            assert!(matches!(source, BookSource::Judged { .. }), "{request:?}");
        }
    }

    #[test]
    fn a_damaged_or_foreign_cache_file_is_judged_again_and_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let cache = BookCache::new(dir.path().to_path_buf(), "zero test");
        let rules = tours_rules();
        let request = BookRequest::new(2, 1);
        let key = cache.key::<Tours>(&rules, request);
        let path = cache.path_of(&key);
        let good = OpeningBook::generate::<Tours>(&rules, 2, 1, 2, 6);
        let mut other_key = key.clone();
        other_key.seed = 99;
        let foreign = serde_json::to_string(&CachedBook {
            key: other_key,
            book: good.clone(),
        })
        .unwrap();
        for (bad, why) in [("{\"key\":", "EOF"), (foreign.as_str(), "holds another book")] {
            std::fs::write(&path, bad).unwrap();
            let (book, source) = cache.book::<Tours>(&rules, request, &mut |_| {});
            assert_eq!(book, good);
            let BookSource::Judged { note } = source else {
                panic!("a bad file was trusted")
            };
            assert!(note.contains(why) && note.contains("kept in"), "{note}");
            assert!(matches!(read(&path, &key), Ok(b) if b == good), "the file was replaced");
        }
    }

    #[test]
    fn a_cache_that_cannot_be_written_still_gives_the_book() {
        let dir = tempfile::tempdir().unwrap();
        let blocker = dir.path().join("a file");
        std::fs::write(&blocker, "").unwrap();
        let cache = BookCache::new(blocker.join("books"), "zero test");
        let rules = tours_rules();
        let (book, source) = cache.book::<Tours>(&rules, BookRequest::new(2, 1), &mut |_| {});
        assert_eq!(book, OpeningBook::generate::<Tours>(&rules, 2, 1, 2, 6));
        assert!(
            matches!(source, BookSource::Judged { ref note } if note.contains("not kept")),
            "{source:?}"
        );
    }
}

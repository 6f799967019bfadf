//! The opening book of a run's evaluations and of `zero eval`: read from the book cache
//! ([`zero_arena::book_cache`]) when this build judged it before, else judged now behind a progress bar, so that
//! no command sits silent for the tens of seconds a deep judge can take before its first game.

use std::time::Instant;
use zero_arena::{BookCache, BookProgress, BookRequest, BookSource, OpeningBook};
use zero_games::Registered;

/// The book `request` asks for under `rules`, judged by `build` (zero's version line, which keys the cache).
/// `announce` gets the lines for the user: what is judged and why, and how long it took.
pub fn evaluation_book<G: Registered>(
    rules: &G::Rules,
    request: BookRequest,
    build: &str,
    announce: &dyn Fn(String),
) -> OpeningBook {
    let started = Instant::now();
    let mut bar = None;
    let (book, source) = {
        let mut progress = |p: BookProgress| {
            let bar = bar.get_or_insert_with(|| {
                announce(format!(
                    "judging an opening book of {} {} openings, {} plies deep (once for these rules and seed)",
                    p.wanted,
                    G::NAME,
                    G::BOOK_BALANCE_DEPTH
                ));
                crate::progress::bar(p.wanted as u64, "book {bar:30} {pos}/{len} openings kept, {msg}")
            });
            // The message first: the position's change draws the line, which must not show an empty field.
            bar.set_message(format!("{} random lines judged", p.tried));
            bar.set_position(p.kept as u64);
        };
        match BookCache::in_zero_cache(build) {
            Some(cache) => cache.book::<G>(rules, request, &mut progress),
            None => {
                let book = OpeningBook::generate_reporting::<G>(rules, request, &mut progress);
                let note = "not kept: neither ZERO_CACHE nor HOME names a cache directory".to_string();
                (book, BookSource::Judged { note })
            }
        }
    };
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    match source {
        BookSource::Cached(path) => tracing::info!("opening book from the cache: {}", path.display()),
        BookSource::Judged { note } => announce(format!(
            "opening book: {} openings judged in {:.1} s ({note})",
            book.openings.len(),
            started.elapsed().as_secs_f64()
        )),
    }
    book
}

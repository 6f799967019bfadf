//! The Python package `zero` (its Rust half, `zero._zero`): every registered game and rule set with states that
//! play, parse and format moves, transform by symmetry and encode the network's input planes as NumPy arrays;
//! and a bundle's bot, searching through tract (pure Rust) so that the package loads no libtorch. The Python half
//! (`python/zero/`) adds run directories as Arrow tables; `docs/python.md` is the guide.

mod bot;
mod erased;
mod game;
mod serial;

use pyo3::prelude::*;
use zero_games::GameKind;

/// The names of the registered games.
#[pyfunction]
fn games() -> Vec<&'static str> {
    GameKind::names()
}

/// The names of the play levels, weakest first (`Bot(path, level=...)`).
#[pyfunction]
fn levels() -> Vec<&'static str> {
    zero_search::LEVELS.iter().map(|level| level.name).collect()
}

#[pymodule]
fn _zero(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add("__version__", env!("CARGO_PKG_VERSION"))?;
    module.add_function(wrap_pyfunction!(games, module)?)?;
    module.add_function(wrap_pyfunction!(levels, module)?)?;
    module.add_class::<game::Game>()?;
    module.add_class::<game::State>()?;
    module.add_class::<game::Outcome>()?;
    module.add_class::<bot::Bot>()?;
    module.add_class::<bot::Analysis>()?;
    module.add_class::<bot::MoveStats>()?;
    Ok(())
}

//! What both binaries share at their edge: the global flags every command takes, and the one way a command's
//! error is printed and ends the process.

/// `-v`/`-vv` and `-q`, accepted by every command of `zero` and `zero-torch` alike.
#[derive(clap::Args, Debug, Clone, Copy)]
pub struct GlobalFlags {
    /// Say more on stderr: -v debug, -vv trace (RUST_LOG, when set, decides instead).
    #[arg(short, long, action = clap::ArgAction::Count, global = true)]
    pub verbose: u8,
    /// Say only warnings and errors on stderr.
    #[arg(short, long, global = true)]
    pub quiet: bool,
}

/// Ends the process with status 1 when `result` is an error ([`fail`]).
pub fn exit_on_error(result: anyhow::Result<()>) {
    if let Err(err) = result {
        fail(&err);
    }
}

/// Prints `err` as `zero: error: ` and its causes, each once (anyhow's context often repeats its source's
/// text), and ends the process with status 1.
pub fn fail(err: &anyhow::Error) -> ! {
    eprintln!("zero: error: {}", zero_edge::error_chain(err.as_ref()));
    std::process::exit(1);
}

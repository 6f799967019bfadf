//! What the programs share at their edge, where a command's error reaches the person who typed it: the one way
//! an error and its causes are written on a line. A crate of its own because the programs have no other common
//! home for it: the front door `zero` must not link the bot crate (which links libtorch), where `zero-play`'s
//! commands live.

/// An error and its causes on one line, each said once: a cause whose text its context already includes (a
/// library error that names its source in its message and also returns it as its source) is not repeated.
pub fn error_chain(err: &(dyn std::error::Error + 'static)) -> String {
    let mut text = String::new();
    for cause in std::iter::successors(Some(err), |e| e.source()) {
        let part = cause.to_string();
        if text.contains(&part) {
            continue;
        }
        if !text.is_empty() {
            text.push_str(": ");
        }
        text.push_str(&part);
    }
    text
}

#[cfg(test)]
mod tests {
    use super::error_chain;
    use anyhow::Context;

    #[test]
    fn an_error_chain_names_each_cause_once() {
        let io = std::io::Error::new(std::io::ErrorKind::NotFound, "No such file or directory");
        let wrapped = format!("checkpoint /missing: {io}");
        let err = anyhow::Error::new(io)
            .context(wrapped)
            .context("player \"ckpt:/missing\"");
        assert_eq!(
            error_chain(err.as_ref()),
            "player \"ckpt:/missing\": checkpoint /missing: No such file or directory"
        );
        let err = anyhow::anyhow!("inner").context("outer");
        assert_eq!(error_chain(err.as_ref()), "outer: inner");
        let plain: anyhow::Result<()> = Err(anyhow::anyhow!("alone"));
        assert_eq!(
            error_chain(plain.context("at the edge").unwrap_err().as_ref()),
            "at the edge: alone"
        );
    }
}

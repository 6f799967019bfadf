//! The bounded opener every user-named file goes through (`zero_io`): what a name leads to on disk, built in a
//! fresh temporary directory from the input.

use std::io::ErrorKind;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use zero_io::{FileKind, OpenError, open_bounded, read_bounded, read_text_bounded, require_within};

const KINDS: [FileKind; 6] = [
    FileKind::Config,
    FileKind::Record,
    FileKind::Manifest,
    FileKind::Network,
    FileKind::Results,
    FileKind::Shard,
];

/// The largest file a check reads whole: larger ones within their cap are only opened, so that an input costs
/// milliseconds (a config's or a manifest's cap, 1 MiB, is still read at and past its edge).
const READ_AT_MOST: u64 = 2 << 20;
/// The largest size of a sparse file: past every cap, and nothing of it is written.
const LARGEST: u64 = 1 << 34;

/// What the name finally leads to.
#[derive(Debug)]
enum Target {
    /// A regular file: the input's bytes, cut or extended with a hole to `size`.
    File {
        content: Vec<u8>,
        size: u64,
    },
    Fifo,
    Directory,
    /// The containing directory itself.
    Root,
    /// A character device outside the temporary directory.
    Device(&'static str),
    Missing,
    /// A symlink to itself.
    Loop,
}

/// `[kind][target][links][flags][size mode][size: 4 bytes] content`: a target of a file kind, inside the
/// containing directory `root/` or beside it in `root-outside/` (a name that begins like it), reached through up
/// to three symlinks, each inside or outside, absolute or relative; the containing directory named directly or
/// through a symlink.
#[derive(Debug)]
struct Scenario {
    kind: FileKind,
    target: Target,
    target_outside: bool,
    /// Each link's place (outside?) and form (relative?), the first pointing at the target.
    links: Vec<(bool, bool)>,
    root_through_link: bool,
}

fn decode(data: &[u8]) -> Option<Scenario> {
    let [kind, target, links, flags, size_mode, s0, s1, s2, s3, content @ ..] = data else {
        return None;
    };
    let kind = KINDS[*kind as usize % KINDS.len()];
    let cap = kind.cap();
    let number = u64::from(u32::from_le_bytes([*s0, *s1, *s2, *s3]));
    let size = match size_mode % 6 {
        0 => content.len() as u64,
        1 => cap - 1,
        2 => cap,
        3 => cap + 1,
        4 => (cap + number).min(LARGEST),
        _ => number % (READ_AT_MOST + 1),
    };
    let target = match target % 8 {
        0 | 1 => Target::File {
            content: content.to_vec(),
            size,
        },
        2 => Target::Fifo,
        3 => Target::Directory,
        4 => Target::Root,
        5 => Target::Device(if flags & 0x20 == 0 { "/dev/zero" } else { "/dev/null" }),
        6 => Target::Missing,
        _ => Target::Loop,
    };
    let links = (0..(links % 4) as usize)
        .map(|i| (links & (0x10 << i) != 0, flags & (1 << i) != 0))
        .collect();
    Some(Scenario {
        kind,
        target,
        target_outside: flags & 0x40 != 0,
        links,
        root_through_link: flags & 0x80 != 0,
    })
}

/// The scenario on disk in `dir`: returns the name to open and the containing directory to name.
fn build(scenario: &Scenario, dir: &Path) -> (PathBuf, PathBuf) {
    let (root, outside) = (dir.join("root"), dir.join("root-outside"));
    std::fs::create_dir(&root).expect("root");
    std::fs::create_dir(&outside).expect("outside");
    let place = |is_outside: bool| if is_outside { &outside } else { &root };
    let mut at = place(scenario.target_outside).join("target");
    match &scenario.target {
        Target::File { content, size } => {
            let file = std::fs::File::create(&at).expect("the file");
            std::io::Write::write_all(&mut &file, content).expect("its content");
            file.set_len(*size).expect("its size");
        }
        Target::Fifo => {
            let name = std::ffi::CString::new(at.as_os_str().as_encoded_bytes()).expect("no NUL");
            // SAFETY: a valid NUL-terminated path; mkfifo only creates the node.
            assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o600) }, 0, "mkfifo");
        }
        Target::Directory => std::fs::create_dir(&at).expect("the directory"),
        Target::Root => at = root.clone(),
        Target::Device(device) => at = PathBuf::from(device),
        Target::Missing => {}
        Target::Loop => symlink(&at, &at).expect("the loop"),
    }
    for (i, &(is_outside, relative)) in scenario.links.iter().enumerate() {
        let link = place(is_outside).join(format!("link{i}"));
        let pointee = match at.strip_prefix(dir) {
            Ok(inside_dir) if relative => Path::new("..").join(inside_dir),
            _ => at.clone(),
        };
        symlink(&pointee, &link).expect("a link");
        at = link;
    }
    let named_root = if scenario.root_through_link {
        let link = dir.join("root-link");
        symlink("root", &link).expect("the root's link");
        link
    } else {
        root
    };
    (at, named_root)
}

/// A scenario in a fresh temporary directory: opening and reading return the regular file's bytes within its
/// kind's cap, or the refusal that says what it is (a FIFO at once, never waited on); nothing past the cap is
/// read; and `require_within` accepts exactly what resolves inside the containing directory.
pub fn files(data: &[u8]) {
    let Some(scenario) = decode(data) else { return };
    let shm = Path::new("/dev/shm");
    let dir = if shm.is_dir() {
        tempfile::tempdir_in(shm)
    } else {
        tempfile::tempdir()
    }
    .expect("a temporary directory");
    let (path, root) = build(&scenario, dir.path());
    let kind = scenario.kind;
    let opened = open_bounded(&path, kind).map(|(_, size)| size);
    expect_open(&scenario, &path, &opened);
    if !matches!(opened, Ok(size) if size > READ_AT_MOST) {
        let read = read_bounded(&path, kind);
        match (&read, &opened) {
            (Ok(bytes), Ok(_)) => expect_bytes(&scenario, bytes),
            (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string(), "read and open refuse differently"),
            _ => panic!("{scenario:?}: read {read:?} but opened {opened:?}"),
        }
        match (read_text_bounded(&path, kind), read) {
            (Ok(text), Ok(bytes)) => assert_eq!(text.as_bytes(), bytes),
            (Err(OpenError::NotText { .. }), Ok(bytes)) => assert!(std::str::from_utf8(&bytes).is_err()),
            (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string()),
            (text, _) => panic!("{scenario:?}: text {text:?}"),
        }
    }
    expect_within(&scenario, &path, &root, require_within(&path, &root, kind));
}

fn expect_open(scenario: &Scenario, path: &Path, opened: &Result<u64, OpenError>) {
    let cap = scenario.kind.cap();
    if let Err(e) = opened {
        assert_eq!(e.path(), path, "the refusal names another file");
    }
    let as_expected = match (&scenario.target, opened) {
        (Target::File { size, .. }, Ok(opened)) => size <= &cap && opened == size,
        (Target::File { size: s, .. }, Err(OpenError::TooLarge { size, cap: c, .. })) => {
            s > &cap && size == s && *c == cap
        }
        (Target::Fifo, Err(OpenError::NotAFile { what, .. })) => *what == "a FIFO",
        (Target::Directory | Target::Root, Err(OpenError::NotAFile { what, .. })) => *what == "a directory",
        (Target::Device(_), Err(OpenError::NotAFile { what, .. })) => *what == "a character device",
        (Target::Missing, Err(OpenError::Io { error, .. })) => error.kind() == ErrorKind::NotFound,
        (Target::Loop, Err(OpenError::Io { error, .. })) => error.raw_os_error() == Some(libc::ELOOP),
        _ => false,
    };
    assert!(as_expected, "{scenario:?}: opened {opened:?}");
}

/// The bytes of a regular file within its cap: its content, then the hole's zeros.
fn expect_bytes(scenario: &Scenario, bytes: &[u8]) {
    let Target::File { content, size } = &scenario.target else {
        panic!("{scenario:?}: read {} bytes of what is not a file", bytes.len());
    };
    assert!(bytes.len() as u64 <= scenario.kind.cap(), "read past the cap");
    assert_eq!(bytes.len() as u64, *size, "read another length");
    let kept = content.len().min(bytes.len());
    assert_eq!(&bytes[..kept], &content[..kept], "read other bytes");
    assert!(
        bytes[kept..].iter().all(|&b| b == 0),
        "read other bytes than the hole's"
    );
}

fn expect_within(scenario: &Scenario, path: &Path, root: &Path, within: Result<(), OpenError>) {
    let as_expected = match (&scenario.target, &within) {
        (Target::Missing, Err(OpenError::Io { error, .. })) => error.kind() == ErrorKind::NotFound,
        (Target::Loop, Err(OpenError::Io { error, .. })) => error.raw_os_error() == Some(libc::ELOOP),
        (Target::Root, Ok(())) => true,
        (Target::Device(_), Err(OpenError::Outside { .. })) => true,
        (Target::Missing | Target::Loop | Target::Root | Target::Device(_), _) => false,
        (_, Ok(())) => !scenario.target_outside,
        (_, Err(OpenError::Outside { path: p, root: r, .. })) => scenario.target_outside && p == path && r == root,
        _ => false,
    };
    assert!(as_expected, "{scenario:?}: require_within gave {within:?}");
}

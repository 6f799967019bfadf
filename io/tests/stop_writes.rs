//! A process ending on a signal waits for the writes in progress ([`stop_writes`]); a write nested in one the
//! same thread holds (a shard's halves, written while the pair is held) goes on rather than wait for that exit.
//! Its own test binary: `stop_writes` ends writing for the whole process.

use std::sync::mpsc;
use std::time::Duration;
use zero_io::{stop_writes, writing};

#[test]
fn a_write_nested_in_a_held_one_finishes_after_the_process_starts_ending() {
    let (held, is_held) = mpsc::channel();
    let (go_on, may_go_on) = mpsc::channel::<()>();
    let (finished, has_finished) = mpsc::channel();
    let writer = std::thread::spawn(move || {
        let pair = writing();
        held.send(()).unwrap();
        may_go_on.recv().unwrap();
        // The process is ending now: this inner write is part of the pair and must not wait for the exit.
        let half = writing();
        drop(half);
        drop(pair);
        finished.send(()).unwrap();
    });
    is_held.recv().unwrap();
    let (stopped, has_stopped) = mpsc::channel();
    std::thread::spawn(move || {
        stop_writes();
        stopped.send(()).unwrap();
    });
    // stop_writes has set the ending flag once it is waiting on the held write.
    assert!(
        has_stopped.recv_timeout(Duration::from_millis(300)).is_err(),
        "stop_writes did not wait"
    );
    go_on.send(()).unwrap();
    has_finished
        .recv_timeout(Duration::from_secs(20))
        .expect("the nested write waited for the exit that waited for it");
    has_stopped
        .recv_timeout(Duration::from_secs(20))
        .expect("stop_writes returned once the held write ended");
    writer.join().unwrap();
    // A new write from a thread holding none does not start once the process is ending.
    let (started, has_started) = mpsc::channel();
    std::thread::spawn(move || {
        let _w = writing();
        started.send(()).unwrap();
    });
    assert!(has_started.recv_timeout(Duration::from_millis(500)).is_err());
}

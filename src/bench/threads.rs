//! `zero bench threads`: why zero runs libtorch with one intra-op thread per worker and a passive OpenMP wait
//! policy. A small residual network (6 blocks, 64 channels, 8x8 board) is timed at batch 1 and 64, with 1 and 2
//! intra-op threads, on an idle machine and beside one busy core (as when a search thread runs next to the
//! network), under each OpenMP wait policy. Each policy needs its own process, since OpenMP reads it at load.

use anyhow::{Context, Result, bail};
use clap::Args;
use std::process::Command;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use tch::nn::{self, ModuleT};

#[derive(Args, Debug)]
pub struct ThreadsBenchArgs {
    /// Seconds per measurement.
    #[arg(long, default_value_t = 1.0)]
    pub seconds: f64,
    /// Internal: measure under the current policy and print rows.
    #[arg(long, hide = true)]
    pub child: bool,
}

pub fn run(args: ThreadsBenchArgs) -> Result<()> {
    if args.child {
        return measure(args.seconds);
    }
    println!(
        "{:<8} {:>7} {:>9} {:>5} {:>12} {:>11}",
        "policy", "threads", "load", "batch", "positions/s", "ms/batch"
    );
    let exe = std::env::current_exe()?;
    for policy in ["PASSIVE", "ACTIVE"] {
        let out = Command::new(&exe)
            .args(["bench", "threads", "--child", "--seconds", &args.seconds.to_string()])
            .env("OMP_WAIT_POLICY", policy)
            .output()
            .context("running the measuring child")?;
        if !out.status.success() {
            bail!("child failed: {}", String::from_utf8_lossy(&out.stderr));
        }
        for line in String::from_utf8_lossy(&out.stdout).lines() {
            println!("{policy:<8} {line}");
        }
    }
    Ok(())
}

fn conv(vs: nn::Path, cin: i64, cout: i64) -> nn::Conv2D {
    nn::conv2d(
        vs,
        cin,
        cout,
        3,
        nn::ConvConfig {
            padding: 1,
            bias: false,
            ..Default::default()
        },
    )
}

fn residual_net(vs: &nn::Path, planes: i64, channels: i64, blocks: usize) -> nn::SequentialT {
    let mut net = nn::seq_t()
        .add(conv(vs / "stem", planes, channels))
        .add(nn::batch_norm2d(vs / "stem_bn", channels, Default::default()))
        .add_fn(|x| x.relu());
    for b in 0..blocks {
        let p = vs / format!("block{b}");
        let c1 = conv(&p / "c1", channels, channels);
        let n1 = nn::batch_norm2d(&p / "n1", channels, Default::default());
        let c2 = conv(&p / "c2", channels, channels);
        let n2 = nn::batch_norm2d(&p / "n2", channels, Default::default());
        net = net.add_fn_t(move |x, train| {
            let y = x.apply(&c1).apply_t(&n1, train).relu().apply(&c2).apply_t(&n2, train);
            (y + x).relu()
        });
    }
    net
}

fn measure(seconds: f64) -> Result<()> {
    let vs = nn::VarStore::new(tch::Device::Cpu);
    let net = residual_net(&vs.root(), 16, 64, 6);
    let _guard = tch::no_grad_guard();
    for threads in [1, 2] {
        tch::set_num_threads(threads);
        for loaded in [false, true] {
            let stop = Arc::new(AtomicBool::new(false));
            let spinner = loaded.then(|| {
                let stop = stop.clone();
                std::thread::spawn(move || {
                    let mut x = 0u64;
                    while !stop.load(Ordering::Relaxed) {
                        x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
                    }
                })
            });
            for batch in [1i64, 64] {
                let input = tch::Tensor::randn([batch, 16, 8, 8], (tch::Kind::Float, tch::Device::Cpu));
                let _ = net.forward_t(&input, false); // warm-up
                let start = Instant::now();
                let mut batches = 0u64;
                while start.elapsed() < Duration::from_secs_f64(seconds) {
                    let _ = net.forward_t(&input, false);
                    batches += 1;
                }
                let secs = start.elapsed().as_secs_f64();
                println!(
                    "{:>7} {:>9} {:>5} {:>12.0} {:>11.2}",
                    threads,
                    if loaded { "busy core" } else { "idle" },
                    batch,
                    (batches as i64 * batch) as f64 / secs,
                    secs * 1000.0 / batches as f64
                );
            }
            stop.store(true, Ordering::Relaxed);
            if let Some(s) = spinner {
                let _ = s.join();
            }
        }
    }
    Ok(())
}

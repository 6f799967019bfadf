//! The report's charts, drawn with plotters into PNG files. Each function returns whether it had data to draw.

use crate::ReportError;
use plotters::prelude::*;
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Once;
use zero_rundir::summary::{GenerationSummary, PhaseTime};

type StepRows = [serde_json::Map<String, serde_json::Value>];

const SIZE: (u32, u32) = (900, 540);
const COLOURS: [RGBColor; 6] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
];

/// plotters' ab_glyph backend knows no system fonts: register the embedded one once.
fn register_font() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // Registration fails only on invalid font bytes, which the embedded font is not.
        let _ = plotters::style::register_font("sans-serif", FontStyle::Normal, dejavu::sans::regular());
    });
}

/// A point: x, y and an optional (low, high) error bar.
type Point = (f64, f64, Option<(f64, f64)>);

/// A named line of points.
struct Series {
    name: String,
    points: Vec<Point>,
}

/// What the x axis counts: whole generations (ticks on whole numbers only) or a quantity such as time.
#[derive(Clone, Copy, PartialEq)]
enum XAxis {
    Generations,
    Continuous,
}

/// A tick label without needless decimals: 1000, 2.5, 0.25.
fn compact(v: &f64) -> String {
    let text = format!("{v:.2}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// Consecutive points joined by the line: on a generations axis a missing generation (a phase run by an
/// earlier session, say) leaves a gap instead of a line drawn across it.
fn joined_runs(points: &[Point], axis: XAxis) -> Vec<&[Point]> {
    if axis == XAxis::Continuous {
        return vec![points];
    }
    let mut runs = Vec::new();
    let mut start = 0;
    for i in 1..=points.len() {
        if i == points.len() || points[i].0 - points[i - 1].0 > 1.0 {
            runs.push(&points[start..i]);
            start = i;
        }
    }
    runs
}

fn bounds(series: &[Series]) -> Option<((f64, f64), (f64, f64))> {
    let mut xs = series.iter().flat_map(|s| s.points.iter().map(|p| p.0)).peekable();
    xs.peek()?;
    let (mut x0, mut x1) = (f64::INFINITY, f64::NEG_INFINITY);
    for x in xs {
        x0 = x0.min(x);
        x1 = x1.max(x);
    }
    let (mut y0, mut y1) = (f64::INFINITY, f64::NEG_INFINITY);
    for p in series.iter().flat_map(|s| &s.points) {
        let (lo, hi) = p.2.unwrap_or((p.1, p.1));
        y0 = y0.min(lo.min(p.1));
        y1 = y1.max(hi.max(p.1));
    }
    if !(x0.is_finite() && y0.is_finite()) {
        return None;
    }
    let pad_x = ((x1 - x0) * 0.05).max(0.5);
    let pad_y = ((y1 - y0) * 0.1).max(1e-3);
    // Nothing here is negative on the x axis (steps, generations, time): it starts at 0 at the earliest. The
    // top gets room for the legend, so that it never covers the data.
    let legend_room = (y1 - y0).max(1e-3) * 0.08 * series.len() as f64;
    let left = if x0 >= 0.0 { (x0 - pad_x).max(0.0) } else { x0 - pad_x };
    Some(((left, x1 + pad_x), (y0 - pad_y, y1 + pad_y + legend_room)))
}

/// Whether a plot was drawn (a plot with nothing to show is left out), or why it could not be.
pub type Drawn = Result<bool, ReportError>;

/// The plotting library's error `e` while drawing `path`.
fn draw_failed(path: &Path) -> impl Fn(&dyn std::fmt::Display) -> ReportError + '_ {
    move |e| ReportError::Draw {
        path: path.to_path_buf(),
        reason: e.to_string(),
    }
}

fn chart(path: &Path, title: &str, x: (&str, XAxis), y_label: &str, series: &[Series]) -> Drawn {
    let (x_label, axis) = x;
    let Some(((x0, x1), (y0, y1))) = bounds(series) else {
        return Ok(false);
    };
    register_font();
    let failed = draw_failed(path);
    // Written beside the target and renamed, like every zero file; the encoder wants a .png ending.
    let tmp = path.with_extension(format!("{}{}.png", &zero_io::TEMP_MARKER[1..], std::process::id()));
    {
        let root = BitMapBackend::new(&tmp, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(|e| failed(&e))?;
        let mut c = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 24))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(60)
            .build_cartesian_2d(x0..x1, y0..y1)
            .map_err(|e| failed(&e))?;
        let whole = |v: &f64| {
            if v.fract().abs() < 1e-9 {
                format!("{v:.0}")
            } else {
                String::new()
            }
        };
        let mut mesh = c.configure_mesh();
        mesh.x_desc(x_label).y_desc(y_label).y_label_formatter(&compact);
        if axis == XAxis::Generations {
            // One tick per generation up to 20, and labels on whole generations only (never 1.5).
            let span = (x1.floor() - x0.ceil()).max(0.0) as usize + 1;
            mesh.x_labels(span.min(20) + 1).x_label_formatter(&whole);
        } else {
            mesh.x_label_formatter(&compact);
        }
        mesh.draw().map_err(|e| failed(&e))?;
        for (i, s) in series.iter().enumerate() {
            let colour = COLOURS[i % COLOURS.len()];
            let runs = joined_runs(&s.points, axis);
            for (k, run) in runs.iter().enumerate() {
                let drawn = c
                    .draw_series(LineSeries::new(run.iter().map(|p| (p.0, p.1)), colour.stroke_width(2)))
                    .map_err(|e| failed(&e))?;
                if k == 0 {
                    drawn
                        .label(s.name.clone())
                        .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], colour.stroke_width(2)));
                }
            }
            c.draw_series(s.points.iter().map(|p| Circle::new((p.0, p.1), 3, colour.filled())))
                .map_err(|e| failed(&e))?;
            c.draw_series(
                s.points
                    .iter()
                    .filter_map(|p| p.2.map(|(lo, hi)| ErrorBar::new_vertical(p.0, lo, p.1, hi, colour, 8))),
            )
            .map_err(|e| failed(&e))?;
        }
        c.configure_series_labels()
            .position(SeriesLabelPosition::UpperRight)
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .draw()
            .map_err(|e| failed(&e))?;
        root.present().map_err(|e| failed(&e))?;
    }
    zero_io::rename_durably(&tmp, path).map_err(crate::error::writing(path))?;
    Ok(true)
}

/// Every numeric field of the per-step metrics whose name mentions "loss", against the step.
pub fn losses(path: &Path, _: &[GenerationSummary], steps: &StepRows) -> Drawn {
    let mut by_name: BTreeMap<String, Vec<Point>> = BTreeMap::new();
    for (step, row) in last_row_per_step(steps) {
        let step = step as f64;
        for (k, v) in row {
            if let (true, Some(y)) = (k.contains("loss"), v.as_f64()) {
                by_name.entry(k.clone()).or_default().push((step, y, None));
            }
        }
    }
    let series: Vec<Series> = by_name
        .into_iter()
        .map(|(name, points)| Series {
            name,
            points: smooth(points),
        })
        .collect();
    chart(path, "Training losses", ("step", XAxis::Continuous), "loss", &series)
}

/// The metrics rows in step order, one per step: a training phase killed and run again logs its steps again
/// (with the same values, as training resumes exactly), and the last row of each step stands. A row without a
/// step counts as the step of its line number.
fn last_row_per_step(steps: &StepRows) -> BTreeMap<u64, &serde_json::Map<String, serde_json::Value>> {
    let mut by_step = BTreeMap::new();
    for (i, row) in steps.iter().enumerate() {
        let step = row.get("step").and_then(|v| v.as_u64()).unwrap_or(i as u64);
        by_step.insert(step, row);
    }
    by_step
}

/// A running mean over a window of the points, so that noisy per-step losses read as curves.
fn smooth(points: Vec<Point>) -> Vec<Point> {
    let window = (points.len() / 100).max(1);
    points
        .chunks(window)
        .map(|c| {
            (
                c[c.len() - 1].0,
                c.iter().map(|p| p.1).sum::<f64>() / c.len() as f64,
                None,
            )
        })
        .collect()
}

fn ratings(generations: &[GenerationSummary], x: impl Fn(&GenerationSummary) -> f64) -> Vec<Series> {
    let mut by_player: BTreeMap<String, Vec<Point>> = BTreeMap::new();
    for g in generations {
        for r in &g.ratings {
            // Each generation's network under one name, so the line shows the run's progress; the previous
            // generation it also played is that line's earlier point, not a series of its own.
            let earlier_network = zero_rundir::summary::is_network_name(&r.player);
            if earlier_network && r.player != g.network {
                continue;
            }
            let name = if r.player == g.network {
                "network".to_string()
            } else {
                r.player.clone()
            };
            by_player
                .entry(name)
                .or_default()
                .push((x(g), r.elo, Some((r.low, r.high))));
        }
    }
    by_player
        .into_iter()
        .map(|(name, points)| Series { name, points })
        .collect()
}

pub fn elo_by_generation(path: &Path, generations: &[GenerationSummary], _: &StepRows) -> Drawn {
    chart(
        path,
        "Elo by generation (95% intervals)",
        ("generation", XAxis::Generations),
        "Elo",
        &ratings(generations, |g| g.generation as f64),
    )
}

pub fn elo_by_time(path: &Path, generations: &[GenerationSummary], _: &StepRows) -> Drawn {
    chart(
        path,
        "Elo by wall-clock time",
        ("minutes of training", XAxis::Continuous),
        "Elo",
        &ratings(generations, |g| g.elapsed_seconds / 60.0),
    )
}

/// The network's score against the classic engine at equal thinking time, with its 95% interval.
fn equal_time_series(generations: &[GenerationSummary], x: impl Fn(&GenerationSummary) -> f64) -> Vec<Series> {
    let points: Vec<Point> = generations
        .iter()
        .filter_map(|g| {
            g.equal_time.as_ref().map(|e| {
                (
                    x(g),
                    100.0 * e.result.score,
                    Some((100.0 * e.result.low, 100.0 * e.result.high)),
                )
            })
        })
        .collect();
    let name = generations
        .iter()
        .rev()
        .find_map(|g| g.equal_time.as_ref().map(|e| format!("score vs {}", e.result.opponent)))
        .unwrap_or_default();
    vec![Series { name, points }]
}

pub fn equal_time_by_generation(path: &Path, generations: &[GenerationSummary], _: &StepRows) -> Drawn {
    let series = equal_time_series(generations, |g| g.generation as f64);
    chart(
        path,
        "Long-run headline: against alpha-beta at equal time per move",
        ("generation", XAxis::Generations),
        "score %",
        &series,
    )
}

pub fn equal_time_by_hours(path: &Path, generations: &[GenerationSummary], _: &StepRows) -> Drawn {
    let series = equal_time_series(generations, |g| g.elapsed_seconds / 3600.0);
    chart(
        path,
        "Long-run headline: against alpha-beta at equal time per move",
        ("hours of training", XAxis::Continuous),
        "score %",
        &series,
    )
}

/// Bagh Chal: the share of the network's moves that keep the result under perfect play, by generation: over
/// all positions, and in the sliding phase by side to move.
pub fn oracle_by_generation(path: &Path, generations: &[GenerationSummary], _: &StepRows) -> Drawn {
    let series = |name: &str, of: fn(&zero_rundir::summary::OracleSummary) -> Option<f64>| Series {
        name: name.to_string(),
        points: generations
            .iter()
            .filter_map(|g| {
                g.oracle
                    .as_ref()
                    .and_then(of)
                    .map(|x| (g.generation as f64, 100.0 * x, None))
            })
            .collect(),
    };
    chart(
        path,
        "Moves that keep the result under perfect play",
        ("generation", XAxis::Generations),
        "% of moves",
        &[
            series("all positions", |o| Some(o.accuracy)),
            series("goats to move", |o| o.goats),
            series("tigers to move", |o| o.tigers),
            series("begin (up to 14 discs)", |o| o.stage("begin")),
            series("middle (15-28 discs)", |o| o.stage("middle")),
            series("end (29 discs and more)", |o| o.stage("end")),
        ],
    )
}

/// Minutes of each phase by generation (where the session that finished the generation ran it).
pub fn phase_time(path: &Path, generations: &[GenerationSummary], _: &StepRows) -> Drawn {
    let phase = |name: &str, of: fn(&GenerationSummary) -> Option<PhaseTime>| Series {
        name: name.into(),
        points: generations
            .iter()
            .filter_map(|g| of(g).map(|t| (g.generation as f64, t.seconds / 60.0, None)))
            .collect(),
    };
    let series: Vec<Series> = [
        phase("self-play", |g| g.phases.selfplay),
        phase("training", |g| g.phases.train),
        phase("evaluation", |g| g.phases.evaluate),
    ]
    .into_iter()
    .filter(|s| !s.points.is_empty())
    .collect();
    chart(
        path,
        "Where each generation's time went",
        ("generation", XAxis::Generations),
        "minutes",
        &series,
    )
}

pub fn game_length(path: &Path, generations: &[GenerationSummary], _: &StepRows) -> Drawn {
    let points = generations
        .iter()
        .map(|g| (g.generation as f64, g.mean_game_length, None))
        .collect();
    chart(
        path,
        "Self-play game length",
        ("generation", XAxis::Generations),
        "plies",
        &[Series {
            name: "mean plies".into(),
            points,
        }],
    )
}

pub fn rates(path: &Path, generations: &[GenerationSummary], _: &StepRows) -> Drawn {
    let share = |name: &str, of: fn(&GenerationSummary) -> f64| Series {
        name: name.into(),
        points: generations.iter().map(|g| (g.generation as f64, of(g), None)).collect(),
    };
    let mut series = vec![
        share("draws", |g| g.draw_rate),
        share("resigned", |g| g.resign_rate),
        share("first player wins", |g| g.first_win_rate),
        share("second player wins", |g| g.second_win_rate),
    ];
    let false_resigns: Vec<_> = generations
        .iter()
        .filter_map(|g| g.false_resign_rate.map(|r| (g.generation as f64, r, None)))
        .collect();
    if !false_resigns.is_empty() {
        series.push(Series {
            name: "false resigns".into(),
            points: false_resigns,
        });
    }
    let sparring: Vec<_> = generations
        .iter()
        .filter_map(|g| {
            g.sparring
                .as_ref()
                .map(|s| (g.generation as f64, s.score, Some((s.low, s.high))))
        })
        .collect();
    if !sparring.is_empty() {
        series.push(Series {
            name: "score against the engine".into(),
            points: sparring,
        });
    }
    chart(
        path,
        "Results of self-play games",
        ("generation", XAxis::Generations),
        "share of games",
        &series,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_generation_breaks_the_line_and_time_never_starts_below_zero() {
        let points: Vec<Point> = [1.0, 2.0, 4.0, 5.0, 7.0].iter().map(|&x| (x, x, None)).collect();
        let runs: Vec<usize> = joined_runs(&points, XAxis::Generations)
            .iter()
            .map(|r| r.len())
            .collect();
        assert_eq!(runs, [2, 2, 1]);
        assert_eq!(joined_runs(&points, XAxis::Continuous).len(), 1);
        let early = Series {
            name: "network".into(),
            points: vec![(0.2, 10.0, None), (3.0, 20.0, None)],
        };
        let ((x0, _), (_, y1)) = bounds(&[early]).unwrap();
        assert_eq!(x0, 0.0, "the time axis starts at 0, not below");
        assert!(y1 > 21.0, "room above the data for the legend");
    }

    #[test]
    fn steps_logged_twice_by_a_resumed_training_count_once() {
        let rows: Vec<serde_json::Map<String, serde_json::Value>> = [
            r#"{"step": 1, "loss": 3.0}"#,
            r#"{"step": 2, "loss": 2.0}"#,
            r#"{"step": 1, "loss": 3.5}"#,
            r#"{"step": 2, "loss": 2.5}"#,
            r#"{"step": 3, "loss": 1.0}"#,
        ]
        .iter()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
        let kept: Vec<(u64, f64)> = last_row_per_step(&rows)
            .into_iter()
            .map(|(step, row)| (step, row["loss"].as_f64().unwrap()))
            .collect();
        assert_eq!(kept, vec![(1, 3.5), (2, 2.5), (3, 1.0)]);
    }
}

//! The files open in pyarrow, which is what pandas, polars and DuckDB users get.

mod common;

use std::process::Command;

use common::write_shard;

#[test]
fn pyarrow_reads_both_files() {
    let dir = tempfile::tempdir().unwrap();
    let summary = write_shard(dir.path(), "py", 0, &[6, 4], 0);
    let python = std::env::var("ZERO_VENV_PYTHON").unwrap_or_else(|_| "python3".to_string());
    let script = r#"
import sys
try:
    import pyarrow.parquet as pq
except ImportError as e:
    print("pyarrow is missing:", e)
    sys.exit(3)
positions = pq.read_table(sys.argv[1])
games = pq.read_table(sys.argv[2])
expected = ["run", "generation", "model_id", "game", "rules", "game_id", "ply", "step", "side_to_move", "position",
            "input", "legal_actions", "policy_actions", "policy_probs", "root_value", "result", "plies_to_end",
            "full_search", "simulations", "short_value", "score"]
assert positions.column_names == expected, positions.column_names
assert games.column_names == ["run", "generation", "model_id", "game", "rules", "game_id", "start_position",
                              "moves", "winner", "reason", "plies", "resigned_false_check"], games.column_names
assert positions.num_rows == 10 and games.num_rows == 2, (positions.num_rows, games.num_rows)
row = positions.slice(2, 1).to_pylist()[0]
assert row["game"] == "bashni" and row["generation"] == 7, row
assert row["simulations"] == 2 and row["legal_actions"] == list(range(100)), row
assert len(row["input"]) == 60, len(row["input"])
assert games.column("moves")[1].as_py() == ["m0", "m1", "m2", "m3"]
meta = pq.read_metadata(sys.argv[1]).metadata
assert meta[b"zero.schema_version"] == b"1", meta
print("OK")
"#;
    let output = Command::new(&python)
        .arg("-c")
        .arg(script)
        .arg(&summary.positions_path)
        .arg(&summary.games_path)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {python} (set ZERO_VENV_PYTHON to a python with pyarrow): {e}"));
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.code() != Some(3),
        "{python} has no pyarrow: run scripts/setup.sh or set ZERO_VENV_PYTHON to a python with pyarrow\n{stdout}"
    );
    assert!(
        output.status.success() && stdout.trim() == "OK",
        "{python} failed:\n{stdout}\n{stderr}"
    );
}

//! Player specs: what parses, and errors that name the wrong part.

use zero_arena::{Network, NetworkPlayer, PlayerKind, PlayerSpec, SpecError};
use zero_games::{bashni::Bashni, tours::Tours};
use zero_search::alphabeta::SearchLimit;

#[test]
fn every_kind_parses() {
    assert_eq!(PlayerSpec::parse("random").unwrap().kind, PlayerKind::Random);
    assert_eq!(PlayerSpec::parse(" greedy ").unwrap().kind, PlayerKind::Greedy);
    let ab = PlayerSpec::parse("alphabeta:depth=4").unwrap();
    assert_eq!(ab.kind, PlayerKind::AlphaBeta(SearchLimit::depth(4)));
    assert_eq!(ab.name(), "alphabeta:depth=4");
    let ab = PlayerSpec::parse("alphabeta:nodes=100000,ms=200,name=ab").unwrap();
    assert_eq!(ab.name(), "ab");
    assert_eq!(ab.canonical(), "alphabeta:nodes=100000,ms=200");
    assert_eq!(
        PlayerSpec::parse("mcts:sims=200").unwrap().kind,
        PlayerKind::Mcts { simulations: 200 }
    );
    let ckpt = PlayerSpec::parse("ckpt:runs/a/gen3.safetensors,sims=0,name=gen3").unwrap();
    let player = network(&ckpt);
    assert_eq!(player.network, Network::Checkpoint("runs/a/gen3.safetensors".into()));
    assert_eq!(player.search.sims, 0);
    assert_eq!(ckpt.name(), "gen3");
    assert_eq!(
        PlayerSpec::parse("ckpt:x.safetensors").unwrap().canonical(),
        "ckpt:x.safetensors,sims=64"
    );
    // Thinking time per move instead of simulations.
    let timed = PlayerSpec::parse("ckpt:runs/a/gen3.safetensors,ms=100,root=gumbel").unwrap();
    assert_eq!(network(&timed).search.movetime_ms, Some(100));
    assert_eq!(timed.canonical(), "ckpt:gen3.safetensors,ms=100,root=gumbel");
    assert_eq!(
        PlayerSpec::parse("ckpt:x.safetensors,ms=250").unwrap().canonical(),
        "ckpt:x.safetensors,ms=250"
    );
}

#[test]
fn malformed_specs_name_the_wrong_part() {
    let err = |s: &str| PlayerSpec::parse(s).unwrap_err();
    assert!(matches!(err("minimax:depth=3"), SpecError::UnknownKind { kind, .. } if kind == "minimax"));
    assert!(matches!(err("alphabeta:deep=3"), SpecError::UnknownKey { key, .. } if key == "deep"));
    assert!(
        matches!(err("mcts:sims=lots"), SpecError::BadNumber { key, value, .. } if key == "sims" && value == "lots")
    );
    assert!(matches!(err("alphabeta:depth=-1"), SpecError::BadNumber { value, .. } if value == "-1"));
    assert!(matches!(err("alphabeta:depth=0"), SpecError::BadNumber { .. }));
    assert!(matches!(err("ckpt:sims=64"), SpecError::MissingPath { .. }));
    assert!(matches!(err("greedy:depth=2"), SpecError::UnknownKey { key, .. } if key == "depth"));
    assert!(matches!(err("alphabeta:4"), SpecError::Malformed { part, .. } if part == "4"));
    assert!(matches!(err(""), SpecError::Empty));
    let text = err("alphabeta:nodes=1e5").to_string();
    assert!(text.contains("1e5") && text.contains("nodes"), "{text}");
    let text = err("ckpt:a.safetensors,sim=3").to_string();
    assert!(text.contains("\"sim\""), "{text}");
    assert!(matches!(err("ckpt:a.safetensors,ms=0"), SpecError::BadNumber { key, .. } if key == "ms"));
    assert!(matches!(err("ckpt:a.safetensors,ms=fast"), SpecError::BadNumber { key, .. } if key == "ms"));
    let text = err("ckpt:a.safetensors,sims=8,ms=100").to_string();
    assert!(text.contains("not both"), "{text}");
}

#[test]
fn checkpoint_root_search() {
    use zero_search::{RootSearch, SideRoots};
    let root = |s: &str| parsed(s).search.root;
    let canonical = |s: &str| PlayerSpec::parse(s).unwrap().canonical();
    assert_eq!(root("ckpt:x.safetensors,sims=16"), RootSearch::Puct.into());
    assert_eq!(root("ckpt:x.safetensors,sims=16,root=puct"), RootSearch::Puct.into());
    assert_eq!(
        root("ckpt:x.safetensors,sims=16,root=gumbel"),
        RootSearch::Gumbel.into()
    );
    // One root for each side, the first player's first.
    let per_side = root("ckpt:x.safetensors,ms=100,root=gumbel/puct");
    assert_eq!(
        per_side,
        SideRoots {
            first: RootSearch::Gumbel,
            second: RootSearch::Puct
        }
    );
    assert_eq!(
        canonical("ckpt:x.safetensors,root=gumbel/puct,ms=100"),
        "ckpt:x.safetensors,ms=100,root=gumbel/puct"
    );
    // The same root twice is that root, written once.
    assert_eq!(root("ckpt:x.safetensors,root=gumbel/gumbel"), RootSearch::Gumbel.into());
    for bad in ["gumbel/", "/puct", "gumbel/puct/puct", "gumbel/alphabeta"] {
        let err = PlayerSpec::parse(&format!("ckpt:x.safetensors,root={bad}")).unwrap_err();
        assert!(
            matches!(&err, SpecError::BadValue { key, .. } if key == "root"),
            "root={bad}: {err:?}"
        );
        assert!(err.to_string().contains("FIRST/SECOND"), "{err}");
    }
    assert_eq!(canonical("ckpt:x.safetensors,root=puct"), "ckpt:x.safetensors,sims=64");
    assert_eq!(
        canonical("ckpt:x.safetensors,root=gumbel,sims=8"),
        "ckpt:x.safetensors,sims=8,root=gumbel"
    );
    assert!(matches!(
        PlayerSpec::parse("ckpt:x.safetensors,root=alphabeta").unwrap_err(),
        SpecError::BadValue { key, .. } if key == "root"
    ));
    let search = zero_search::PlaySearch {
        sims: 32,
        ..zero_search::PlaySearch::DEFAULT
    };
    let spec = PlayerSpec::network(Network::Checkpoint("runs/a/gen2.safetensors".into()), search).labelled("gen2");
    assert_eq!(spec.name(), "gen2");
    assert_eq!(spec.canonical(), "ckpt:gen2.safetensors,sims=32");
}

#[test]
fn checkpoint_precision() {
    use zero_model::Precision;
    let precision = |s: &str| parsed(s).precision;
    assert_eq!(precision("ckpt:x.safetensors"), Precision::F32);
    assert_eq!(precision("ckpt:x.safetensors,precision=auto"), Precision::Auto);
    assert_eq!(precision("ckpt:x.safetensors,precision=f32"), Precision::F32);
    assert_eq!(precision("ckpt:x.safetensors,sims=8,precision=bf16"), Precision::Bf16);
    let err = PlayerSpec::parse("ckpt:x.safetensors,precision=fp16").unwrap_err();
    assert!(
        matches!(&err, SpecError::BadValue { key, value, .. } if key == "precision" && value == "fp16"),
        "{err}"
    );
    assert!(err.to_string().contains("auto, f32 or bf16"), "{err}");
}

#[test]
fn checkpoint_leaf_batch_and_tree_reuse() {
    use zero_search::config::PLAY_LEAF_BATCH;
    let parts = |s: &str| (parsed(s).search.leaf_batch, parsed(s).search.tree_reuse);
    assert_eq!(parts("ckpt:x.safetensors,ms=100"), (PLAY_LEAF_BATCH, true));
    assert_eq!(parts("ckpt:x.safetensors,ms=100,batch=8,reuse=off"), (8, false));
    assert_eq!(parts("ckpt:x.safetensors,ms=100,reuse=on"), (PLAY_LEAF_BATCH, true));
    let canonical = |s: &str| PlayerSpec::parse(s).unwrap().canonical();
    assert_eq!(
        canonical("ckpt:x.safetensors,ms=100,batch=1,reuse=off"),
        "ckpt:x.safetensors,ms=100,batch=1,reuse=off"
    );
    let default_batch = format!("ckpt:x.safetensors,ms=100,batch={PLAY_LEAF_BATCH}");
    assert_eq!(canonical(&default_batch), "ckpt:x.safetensors,ms=100");
    // The raw policy searches nothing: the settings of a search are not written.
    assert_eq!(
        canonical("ckpt:x.safetensors,sims=0,batch=4"),
        "ckpt:x.safetensors,sims=0"
    );
    let err = |s: &str| PlayerSpec::parse(s).unwrap_err();
    assert!(matches!(err("ckpt:x.safetensors,batch=0"), SpecError::BadNumber { key, .. } if key == "batch"));
    assert!(matches!(err("ckpt:x.safetensors,batch=257"), SpecError::BadNumber { key, .. } if key == "batch"));
    assert!(matches!(err("ckpt:x.safetensors,batch=many"), SpecError::BadNumber { key, .. } if key == "batch"));
    let text = err("ckpt:x.safetensors,reuse=maybe").to_string();
    assert!(text.contains("reuse") && text.contains("on or off"), "{text}");
}

#[test]
fn checkpoint_puct_constants() {
    use zero_search::SearchConfig;
    let parts = |s: &str| (parsed(s).search.c_puct, parsed(s).search.fpu_reduction);
    let defaults = (SearchConfig::DEFAULT.c_puct, SearchConfig::DEFAULT.fpu_reduction);
    assert_eq!(parts("ckpt:x.safetensors,ms=100"), defaults);
    assert_eq!(parts("ckpt:x.safetensors,ms=100,cpuct=2.5,fpu=0"), (2.5, 0.0));
    let canonical = |s: &str| PlayerSpec::parse(s).unwrap().canonical();
    assert_eq!(
        canonical("ckpt:x.safetensors,ms=100,cpuct=0.5,fpu=0.5"),
        "ckpt:x.safetensors,ms=100,cpuct=0.5,fpu=0.5"
    );
    let default_cpuct = format!("ckpt:x.safetensors,sims=8,cpuct={}", defaults.0);
    assert_eq!(canonical(&default_cpuct), "ckpt:x.safetensors,sims=8");
    assert_eq!(
        canonical("ckpt:x.safetensors,sims=0,cpuct=3"),
        "ckpt:x.safetensors,sims=0"
    );
    let bad_values = [
        "cpuct=0",
        "cpuct=-1",
        "cpuct=lots",
        "cpuct=NaN",
        "cpuct=0.5/1",
        "fpu=-0.5",
        "fpu=5",
    ];
    for bad in bad_values {
        let err = PlayerSpec::parse(&format!("ckpt:x.safetensors,{bad}")).unwrap_err();
        let key = bad.split('=').next().unwrap();
        assert!(
            matches!(&err, SpecError::BadValue { key: k, .. } if k == key),
            "{bad}: {err}"
        );
        assert!(err.to_string().contains("a number from"), "{bad}: {err}");
    }
}

#[test]
fn checkpoint_minimax_weight() {
    let weight = |s: &str| parsed(s).search.minimax_weight;
    assert_eq!(weight("ckpt:x.safetensors,ms=100"), 0.0);
    assert_eq!(weight("ckpt:x.safetensors,ms=100,minimax=0.3"), 0.3);
    let canonical = |s: &str| PlayerSpec::parse(s).unwrap().canonical();
    assert_eq!(
        canonical("ckpt:x.safetensors,ms=100,minimax=0.3"),
        "ckpt:x.safetensors,ms=100,minimax=0.3"
    );
    assert_eq!(
        canonical("ckpt:x.safetensors,sims=8,minimax=0"),
        "ckpt:x.safetensors,sims=8"
    );
    for bad in ["minimax=1.5", "minimax=-0.1", "minimax=NaN", "minimax=some"] {
        let err = PlayerSpec::parse(&format!("ckpt:x.safetensors,{bad}")).unwrap_err();
        assert!(
            matches!(&err, SpecError::BadValue { key, .. } if key == "minimax"),
            "{bad}: {err}"
        );
        assert!(err.to_string().contains("a weight from 0 to 1"), "{bad}: {err}");
    }
}

#[test]
fn checkpoint_score_weights() {
    use zero_search::SideWeights;
    let weights = |s: &str| parsed(s).search.score_utility;
    assert_eq!(weights("ckpt:x.safetensors,ms=100"), SideWeights::both(0.0));
    assert_eq!(weights("ckpt:x.safetensors,ms=100,score=0.25"), SideWeights::both(0.25));
    let goats = SideWeights {
        first: 0.5,
        second: 0.0,
    };
    assert_eq!(weights("ckpt:x.safetensors,ms=100,score=0.5/0"), goats);
    let canonical = |s: &str| PlayerSpec::parse(s).unwrap().canonical();
    assert_eq!(
        canonical("ckpt:x.safetensors,ms=100,score=0.5/0"),
        "ckpt:x.safetensors,ms=100,score=0.5/0"
    );
    assert_eq!(
        canonical("ckpt:x.safetensors,sims=8,score=0"),
        "ckpt:x.safetensors,sims=8"
    );
    for bad in [
        "score=1.5",
        "score=-0.1",
        "score=lots",
        "score=0.5/",
        "score=NaN",
        "score=0.1/0.2/0.3",
    ] {
        let err = PlayerSpec::parse(&format!("ckpt:x.safetensors,{bad}")).unwrap_err();
        assert!(
            matches!(&err, SpecError::BadNumber { key, .. } if key == "score"),
            "{bad}: {err}"
        );
        assert!(err.to_string().contains("a weight from 0 to 1"), "{bad}: {err}");
    }
}

/// The simulations and temperature of a checkpoint spec made ready for game `G`.
fn searched_by<G: zero_games::Encoding>(spec: &str) -> (u32, f32) {
    let search = network(&PlayerSpec::parse(spec).unwrap().for_game::<G>()).search;
    (search.sims, search.temperature)
}

#[test]
fn checkpoint_strength_levels_set_simulations_and_temperature() {
    let parts = searched_by::<Bashni>;
    assert_eq!(parts("ckpt:x.safetensors,level=beginner"), (1, 2.0));
    assert_eq!(parts("ckpt:x.safetensors,level=Expert"), (32, 0.2));
    assert_eq!(parts("ckpt:x.safetensors,sims=64,temp=0.5"), (64, 0.5));
    // Each game has its own table: a Tours network needs a search at every level.
    let tours = searched_by::<Tours>;
    assert_eq!(tours("ckpt:x.safetensors,level=beginner"), (16, 1.0));
    assert_eq!(
        tours("ckpt:x.safetensors,sims=64,temp=0.5"),
        (64, 0.5),
        "no level, no change"
    );
    let club = PlayerSpec::parse("ckpt:x.safetensors,level=club").unwrap();
    assert_eq!(club.canonical(), "ckpt:x.safetensors,level=club");
    assert_eq!(club.for_game::<Tours>().canonical(), "ckpt:x.safetensors,level=club");
    for (spec, says) in [
        (
            "ckpt:x.safetensors,level=master",
            "the levels are beginner, casual, club, expert, strong, max",
        ),
        (
            "ckpt:x.safetensors,level=club,sims=8",
            "give level=NAME or sims/ms/temp, not both",
        ),
        (
            "ckpt:x.safetensors,temp=1,level=club",
            "give level=NAME or sims/ms/temp, not both",
        ),
        ("ckpt:x.safetensors,temp=-1", "a temperature from 0 to 10"),
    ] {
        let err = PlayerSpec::parse(spec).unwrap_err().to_string();
        assert!(err.contains(says), "{spec}: {err}");
    }
}

#[test]
fn a_search_budget_past_its_bound_is_refused_naming_the_key() {
    let refused = |s: &str, key: &str| match PlayerSpec::parse(s) {
        Err(SpecError::BadNumber { key: k, .. }) => assert_eq!(k, key, "{s}"),
        other => panic!("{s}: {other:?}"),
    };
    // A typo of a few zeros would otherwise freeze a match for days, or fill memory with one tree.
    refused("alphabeta:ms=99999999999", "ms");
    refused("alphabeta:ms=0", "ms");
    refused("alphabeta:nodes=0", "nodes");
    refused("alphabeta:nodes=100000000000", "nodes");
    refused("ckpt:a.safetensors,ms=600001", "ms");
    refused("ckpt:a.safetensors,sims=4000000000", "sims");
    refused("ckpt:a.safetensors,sims=1000001", "sims");
    refused("mcts:sims=0", "sims");
    refused("mcts:sims=2000000", "sims");
    let limit = |s: &str| match PlayerSpec::parse(s).unwrap().kind {
        PlayerKind::AlphaBeta(limit) => limit,
        other => panic!("{other:?}"),
    };
    assert_eq!(limit("alphabeta:ms=600000").millis, Some(600_000));
    assert_eq!(limit("alphabeta:nodes=1000000000").nodes, Some(1_000_000_000));
    assert!(PlayerSpec::parse("ckpt:a.safetensors,sims=1000000").is_ok());
    assert!(PlayerSpec::parse("ckpt:a.safetensors,ms=600000").is_ok());
    let text = PlayerSpec::parse("ckpt:a.safetensors,sims=8,ms=100")
        .unwrap_err()
        .to_string();
    assert!(text.contains("\"100\"") && text.contains("not both"), "{text}");
}

#[test]
fn the_tablebase_player_parses_with_its_file_and_placement_limit() {
    let plain = PlayerSpec::parse("tablebase").unwrap();
    assert_eq!(
        plain.kind,
        PlayerKind::Tablebase {
            file: None,
            placement: SearchLimit::default()
        }
    );
    assert_eq!(plain.name(), "tablebase:depth=4");
    let timed = PlayerSpec::parse("tablebase:file=/tmp/b.tb,ms=100").unwrap();
    match &timed.kind {
        PlayerKind::Tablebase { file, placement } => {
            assert_eq!(file.as_deref(), Some(std::path::Path::new("/tmp/b.tb")));
            assert_eq!(placement.millis, Some(100));
        }
        other => panic!("{other:?}"),
    }
    assert!(timed.thinks_on_the_clock());
    assert_eq!(timed.canonical(), "tablebase:file=/tmp/b.tb,ms=100");
    let err = PlayerSpec::parse("tablebase:sims=3").unwrap_err();
    assert!(
        matches!(&err, SpecError::UnknownKey { kind: "tablebase", key, .. } if key == "sims"),
        "{err}"
    );
    assert!(err.to_string().contains("file, depth, nodes, ms"), "{err}");
    assert!(PlayerSpec::parse("tablebase:ms=0").is_err());
    assert!(PlayerSpec::parse("tablebase:x.tb").is_err());
}

/// Found by the `cli` fuzz target: a checkpoint whose file name holds an `=` or begins with a space was written
/// canonically as text that did not parse (or parsed to another file), and `path=` with nothing after it was a
/// checkpoint at the empty path.
#[test]
fn a_checkpoint_spec_written_canonically_parses_back_to_its_file() {
    let path_of = |spec: &PlayerSpec| match network(spec).network {
        Network::Checkpoint(path) => path.display().to_string(),
        other => panic!("{other:?}"),
    };
    for (text, canonical, file) in [
        ("ckpt:path=runs/lr=0.1/net=3,sims=8", "ckpt:path=net=3,sims=8", "net=3"),
        ("ckpt:path=name=x", "ckpt:path=name=x,sims=64", "name=x"),
        ("ckpt:runs/ a", "ckpt:path=runs/ a,sims=64", "runs/ a"),
    ] {
        let spec = PlayerSpec::parse(text).unwrap();
        assert_eq!(spec.canonical(), canonical, "{text}");
        let again = PlayerSpec::parse(canonical).unwrap();
        assert_eq!(path_of(&again), file, "{canonical}");
        assert_eq!(again.canonical(), canonical);
    }
    for empty in ["ckpt:path=", "ckpt:path= ,sims=3"] {
        assert!(
            matches!(PlayerSpec::parse(empty), Err(SpecError::MissingPath { .. })),
            "{empty}"
        );
    }
}

/// The network player of a `ckpt:` spec.
fn network(spec: &PlayerSpec) -> NetworkPlayer {
    match &spec.kind {
        PlayerKind::Network(player) => player.clone(),
        other => panic!("{other:?}"),
    }
}

/// The network player a `ckpt:` spec string parses to.
fn parsed(text: &str) -> NetworkPlayer {
    network(&PlayerSpec::parse(text).unwrap())
}

#[test]
fn a_uniform_player_takes_a_search_and_no_network_settings() {
    let uniform = PlayerSpec::parse("uniform:sims=32,root=gumbel,cpuct=2,name=gen0").unwrap();
    let player = network(&uniform);
    assert_eq!(player.network, Network::Uniform);
    assert_eq!((player.search.sims, player.search.c_puct), (32, 2.0));
    assert_eq!(uniform.canonical(), "uniform:sims=32,root=gumbel,cpuct=2");
    assert_eq!(PlayerSpec::parse("uniform").unwrap().canonical(), "uniform:sims=64");
    assert_eq!(PlayerSpec::parse(&uniform.canonical()).unwrap().kind, uniform.kind);
    // What only a network has is refused, naming the key.
    for (spec, key) in [
        ("uniform:path=x.safetensors", "path"),
        ("uniform:device=cpu", "device"),
        ("uniform:precision=f32", "precision"),
    ] {
        let err = PlayerSpec::parse(spec).unwrap_err();
        assert!(
            matches!(&err, SpecError::UnknownKey { key: k, kind: "uniform", .. } if k == key),
            "{err}"
        );
    }
    assert!(matches!(
        PlayerSpec::parse("uniform:x.safetensors").unwrap_err(),
        SpecError::Malformed { .. }
    ));
}

#[test]
fn a_bundle_spec_names_its_directory_and_is_refused_when_it_does_not_open() {
    assert!(matches!(
        PlayerSpec::parse("bundle:sims=8").unwrap_err(),
        SpecError::MissingPath { kind: "bundle", .. }
    ));
    let err = PlayerSpec::parse("bundle:/nonexistent/zero-bundle,sims=8").unwrap_err();
    assert!(matches!(err, SpecError::Bundle { .. }), "{err}");
    assert!(err.to_string().contains("/nonexistent/zero-bundle"), "{err}");
}

#[test]
fn a_network_player_is_written_and_read_back_as_json() {
    for spec in [
        "ckpt:runs/a/gen3.safetensors,ms=100,root=gumbel/puct,score=0.5/0,batch=8,reuse=off,device=cuda:1",
        "ckpt:x.safetensors,level=club,precision=bf16",
        "uniform:sims=16,cpuct=2,fpu=0,minimax=0.5,temp=1",
    ] {
        let player = parsed(spec);
        let json = serde_json::to_value(&player).unwrap();
        let back: NetworkPlayer = serde_json::from_value(json.clone()).unwrap();
        assert_eq!(back, player, "{spec}: {json}");
    }
    let json = serde_json::to_value(parsed("uniform:sims=16")).unwrap();
    assert_eq!(json["network"], "uniform");
    assert_eq!(
        (json["device"].as_str(), json["precision"].as_str()),
        (Some("cpu"), Some("f32"))
    );
    let read = |text: &str| serde_json::from_str::<NetworkPlayer>(text).map_err(|e| e.to_string());
    let err = read(r#"{"network": "uniform", "search": {"sims": 8, "root": "puct"}, "level": "grandmaster"}"#);
    assert!(err.as_ref().unwrap_err().contains("grandmaster"), "{err:?}");
    let err = read(r#"{"network": {"checkpoint": "a"}, "search": {"sims": 8, "root": "puct"}, "devise": "cpu"}"#);
    assert!(err.as_ref().unwrap_err().contains("devise"), "{err:?}");
    // Device and precision left out are the arena's defaults.
    let player = read(r#"{"network": {"checkpoint": "a"}, "search": {"sims": 8, "root": "puct"}}"#).unwrap();
    assert_eq!(player, parsed("ckpt:a,sims=8"));
}

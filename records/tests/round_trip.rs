//! Records written and read back: 2,000 random games of every game and variant re-read to the same
//! moves, positions and results; then PDN's other spellings, and a clear error for each kind of bad record.

use zero_games::baghchal::BaghChal;
use zero_games::bashni::Bashni;
use zero_games::checks::CheckRng;
use zero_games::tours::Tours;
use zero_games::{Game, GameKind, Side, with_game};
use zero_records::{GameResult, Record, read_records, replay, write_record};

/// A random game of `G` under `variant`: from the start or from a position a few random moves in (written as
/// its FEN), played to its end or cut short as a resignation would.
fn random_record<G: Game>(variant: Option<&str>, rng: &mut CheckRng) -> (Record, Vec<String>, String) {
    let rules = G::parse_rules(variant, &[]).unwrap();
    let mut game = G::start(&rules);
    let mut legal = Vec::new();
    let mut record = Record::new::<G>(&rules, variant);
    record.set_tag("Event", "round trip \"test\"");
    if rng.below(4) == 0 {
        for _ in 0..rng.below(12) {
            game.legal_moves(&mut legal);
            if legal.is_empty() {
                break;
            }
            game.play(&legal[rng.below(legal.len())]);
        }
        let fen = game.position();
        game = G::from_position(&rules, &fen).unwrap();
        record.set_tag("SetUp", "1");
        record.set_tag("FEN", &fen);
    }
    let cut = (rng.below(3) == 0).then(|| rng.below(60));
    let mut positions = vec![game.position()];
    loop {
        game.legal_moves(&mut legal);
        if legal.is_empty() || cut == Some(record.moves.len()) {
            break;
        }
        let mv = legal[rng.below(legal.len())].clone();
        record.moves.push(game.format_move(&mv));
        game.play(&mv);
        positions.push(game.position());
    }
    record.result = match game.outcome() {
        Some(outcome) => GameResult::of_winner(outcome.winner),
        None if rng.below(2) == 0 => GameResult::Unknown,
        None => GameResult::of_winner(Some(game.to_move().other())),
    };
    let end = positions.last().unwrap().clone();
    (record, positions, end)
}

fn round_trip<G: Game>(variants: &[Option<&str>], games: usize) {
    let mut rng = CheckRng::new(7);
    for &variant in variants {
        let mut texts = String::new();
        let mut expected = Vec::new();
        for _ in 0..games {
            let (record, positions, end) = random_record::<G>(variant, &mut rng);
            texts.push_str(&write_record::<G>(&record).unwrap());
            texts.push('\n');
            expected.push((record, positions, end));
        }
        let read = read_records(&texts).unwrap();
        assert_eq!(read.len(), games, "{} {variant:?}", G::NAME);
        for (read, (record, positions, end)) in read.iter().zip(&expected) {
            assert_eq!(read.record.moves, record.moves);
            assert_eq!(read.record.result, record.result);
            assert_eq!(read.record.tag("Event"), Some("round trip \"test\""));
            let replayed = replay::<G>(read).unwrap();
            let mut game = replayed.start.clone();
            let mut seen = vec![game.position()];
            for mv in &replayed.moves {
                game.play(mv);
                seen.push(game.position());
            }
            assert_eq!(&seen, positions);
            assert_eq!(&replayed.end.position(), end);
        }
    }
}

#[test]
fn bashni_records_of_every_variant_read_back_to_the_same_games() {
    round_trip::<Bashni>(&[None, Some("ludii"), Some("dagaz"), Some("optional-capture")], 2000);
}

#[test]
fn bagh_chal_records_of_every_variant_read_back_to_the_same_games() {
    round_trip::<BaghChal>(&[None, Some("goats-lose-on-repetition"), Some("threefold-draw")], 2000);
}

#[test]
fn tours_records_of_every_variant_read_back_to_the_same_games() {
    round_trip::<Tours>(&[None, Some("compound")], 2000);
}

#[test]
fn every_registered_games_records_read_back_to_the_same_games() {
    for &kind in GameKind::ALL {
        with_game!(kind, G => round_trip::<G>(&[None], 300));
    }
}

#[test]
fn a_written_record_numbers_moves_and_names_its_rules() {
    let rules = Bashni::parse_rules(None, &[]).unwrap();
    let mut record = Record::new::<Bashni>(&rules, None);
    record.set_tag("White", "gen3");
    record.moves = vec!["c3-d4".into(), "f6-e5".into(), "d4:f6".into()];
    let text = write_record::<Bashni>(&record).unwrap();
    assert!(
        text.starts_with("[GameType \"25,W,8,8,A0,0\"]\n[Variant \"bashni\"]\n[Rules \""),
        "{text}"
    );
    assert!(
        text.contains("[White \"gen3\"]\n[Result \"*\"]\n\n1. c3-d4 f6-e5 2. d4:f6 *\n"),
        "{text}"
    );
    record.result = GameResult::FirstWins;
    assert!(write_record::<Bashni>(&record).unwrap().contains("2. d4:f6 2-0\n"));
    // A game that starts with the second player to move numbers its first move `1...`.
    let rules = BaghChal::parse_rules(None, &[]).unwrap();
    let mut game = BaghChal::start(&rules);
    let mv = game.parse_move(&first_legal(&game)).unwrap();
    game.play(&mv);
    let mut record = Record::new::<BaghChal>(&rules, None);
    record.set_tag("FEN", &game.position());
    record.moves = vec![first_legal(&game)];
    record.result = GameResult::Draw;
    let text = write_record::<BaghChal>(&record).unwrap();
    assert!(
        text.contains(&format!("\n1... {} 1/2-1/2\n", record.moves[0])),
        "{text}"
    );
    assert_eq!(game.to_move(), Side::Second);
}

fn first_legal<G: Game>(game: &G) -> String {
    let mut legal = Vec::new();
    game.legal_moves(&mut legal);
    game.format_move(&legal[0])
}

#[test]
fn russian_draughts_pdn_as_pydraughts_writes_it_replays_as_bashni() {
    // pydraughts' PDNWriter for a Russian game: the long GameType, the start as a FEN of algebraic squares,
    // and no Variant tag. A capture-free opening means the same in both games.
    let text = "[GameType \"25,W,8,8,A0,0\"]\n\
                [FEN \"W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8\"]\n\
                \n\
                1. c3-d4 f6-g5 2. g3-f4 *\n\n";
    let records = read_records(text).unwrap();
    let tag = records[0].record.game_type().unwrap();
    assert_eq!((tag.name, tag.pdn), (None, Some(25)));
    let game = replay::<Bashni>(&records[0]).unwrap();
    assert_eq!(game.start.position(), Bashni::start(&game.rules).position());
    assert_eq!(game.move_texts(), ["c3-d4", "f6-g5", "g3-f4"]);
    // zero's own Bashni records name the game in a Variant tag beside PDN's number.
    let written = write_record::<Bashni>(&Record::new::<Bashni>(&game.rules, Some("ludii"))).unwrap();
    let read = read_records(&written).unwrap();
    let tag = read[0].record.game_type().unwrap();
    assert_eq!(
        (tag.name, tag.variant, tag.pdn),
        (Some("bashni"), Some("ludii"), Some(25))
    );
    replay::<Bashni>(&read[0]).unwrap();
}

#[test]
fn pdn_as_other_programs_write_it_is_read() {
    let text = "% an escape line\n\
                [Event \"club \\\"open\\\"\"] [Round \"1\"]\n\
                [GameType \"bashni\"]\n\
                \n\
                1. 22-18 {a comment\nover lines} 11-15 (2. c3-b4 ; a variation\n) 2. 18x11! $3 8x15\n\
                3.e3-d4 ; the rest of this line: 5-9\n\
                * \n\
                1. c3-d4 1-1\n";
    let records = read_records(text).unwrap();
    assert_eq!(records.len(), 2);
    let first = &records[0];
    assert_eq!(first.record.tag("Event"), Some("club \"open\""));
    assert_eq!(first.record.moves, ["22-18", "11-15", "18x11", "8x15", "e3-d4"]);
    assert_eq!(first.move_lines, [5, 6, 7, 7, 8]);
    let game = replay::<Bashni>(first).unwrap();
    assert_eq!(game.move_texts(), ["c3-d4", "f6-e5", "d4:f6", "g7:e5", "e3-d4"]);
    assert_eq!(records[1].record.result, GameResult::Draw);
    assert_eq!(records[1].line, 10);
}

/// The error reading, or else replaying as Bashni, `text`.
fn error(text: &str) -> String {
    match read_records(text) {
        Err(e) => e.to_string(),
        Ok(records) => records
            .iter()
            .find_map(|r| replay::<Bashni>(r).err())
            .map(|e| e.to_string())
            .unwrap_or_else(|| panic!("{text:?} should be refused")),
    }
}

#[test]
fn a_bad_record_is_refused_naming_its_line_and_why() {
    let cases: &[(&str, &str)] = &[
        (
            "[Event \"x\"]\n\n1. c3-d4 {never closed\n",
            "line 3: a comment '{' opened here is never closed",
        ),
        (
            "1. c3-d4 (f6-e5\n",
            "line 1: a variation '(' opened here is never closed",
        ),
        ("1. c3-d4 )\n", "line 1: ')' closes no variation"),
        ("[Event x]\n", "line 1: tag Event: expected a quoted value"),
        ("[Event \"x\n", "line 1: tag Event: its value's '\"' is never closed"),
        ("[Event \"x\" junk\n", "line 1: tag Event: expected ']' after its value"),
        ("[Event \"x\"] junk\n", "line 1: unexpected \"junk\" after a tag"),
        ("[Event \"x\"]\n[Event \"y\"]\n", "line 2: tag Event given twice"),
        ("[Result \"3-0\"]\n", "line 1: Result tag \"3-0\" is not a result"),
        (
            "[Result \"2-0\"]\n1. c3-d4 0-2\n",
            "line 2: the movetext ends SecondWins but the Result tag says FirstWins",
        ),
        ("1. c3-d4 *\nf6-e5 *\n", "line 2: move 1 \"f6-e5\": bad move"),
        (
            "[GameType \"tours\"]\n1. c3-d4\n",
            "line 1: a record of \"tours\", not of bashni",
        ),
        (
            "[GameType \"bashni:nosuch\"]\n",
            "line 1: its rules: unknown variant \"nosuch\"",
        ),
        (
            "[GameType \"20\"]\n1. 32-28 *\n",
            "line 1: its GameType 20 is a PDN draughts game whose board and notation bashni does not share",
        ),
        (
            "[GameType \"25\"]\n[Variant \"tours\"]\n",
            "line 1: a record of \"tours\", not of bashni",
        ),
        (
            "[GameType \"25\"]\n[Variant \"bashni:nosuch\"]\n",
            "line 1: its rules: unknown variant \"nosuch\"",
        ),
        ("[Rules \"max_plies=-1\"]\n", "line 1: its rules: bad value \"-1\""),
        ("[FEN \"w z9:w\"]\n", "line 1: its FEN tag: bad position"),
        (
            "[Event \"x\"]\n1. c3-d4 f6-e5\n2. c3-b4\n",
            "line 3: move 3 \"c3-b4\": bad move \"c3-b4\"",
        ),
        ("1. c3-d4 ??\n", "line 1: \"??\" is not a move"),
        // From the audit of issue 103: a file cut in mid-movetext replayed as a complete game.
        (
            "[Event \"x\"]\n1. c3-d4 f6-e5\n",
            "line 2: the movetext ends without a result (1-0, 0-1, 1/2-1/2 or *): the record is cut short",
        ),
    ];
    for (text, expected) in cases {
        let found = error(text);
        assert!(
            found.starts_with(expected),
            "{text:?}:\n  found    {found}\n  expected {expected}"
        );
    }
}

#[test]
fn a_record_that_plays_on_after_the_end_or_contradicts_it_is_refused() {
    // White's last man is taken: the game is over, and Black won it.
    let text = "[FEN \"b d4:b c3:w\"]\n1... d4:b2 1-0\n";
    assert!(error(text).contains("its moves end the game SecondWins (no-legal-move), but its result is FirstWins"));
    let text = "[FEN \"b d4:b c3:w\"]\n1... d4:b2 2. b2-a1\n";
    assert!(error(text).contains("line 2: move 2 \"b2-a1\": the game was already over (no-legal-move)"));
}

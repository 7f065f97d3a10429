//! Games from elsewhere: arena `games.txt` lines (sparring games included) become data
//! records, and `relabel` gives any record's plies a stronger search's best move and score.

use super::format::{GameRecord, Outcome, Ply};
use crate::game::{Board, Move, Rule};
use crate::search::{Clock, Limits, Searcher, TimeBudget};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// An arena line `#12 black=A white=B result=1-0 reason="..." opening=3/4 moves=7,7 ...` on
/// a `size` board under `rule`, unlabelled. `Ok(None)` for a game that did not end on the
/// board (a timeout, a crash, an illegal move): its result says nothing about the position.
pub fn arena_line(line: &str, size: usize, rule: Rule) -> Result<Option<GameRecord>, String> {
    let field = |name: &str| {
        line.split_whitespace()
            .find_map(|w| w.strip_prefix(name))
            .ok_or(format!("no {name} field"))
    };
    let outcome = match field("result=")? {
        "1-0" => Outcome::BlackWon,
        "0-1" => Outcome::WhiteWon,
        "1/2-1/2" => Outcome::Draw,
        r => return Err(format!("unknown result `{r}`")),
    };
    let reason = line
        .split("reason=\"")
        .nth(1)
        .and_then(|r| r.split('"').next());
    if !reason.is_some_and(|r| r.contains("wins by five") || r.starts_with("draw")) {
        return Ok(None);
    }
    let opening = match field("opening=")? {
        "none" => 0,
        o => o
            .split_once('/')
            .and_then(|(_, k)| k.parse().ok())
            .ok_or(format!("bad opening field `{o}`"))?,
    };
    let moves = line
        .split(" moves=")
        .nth(1)
        .ok_or("no moves field")?
        .split_whitespace()
        .map(|mv| {
            let (x, y) = mv.split_once(',').ok_or(format!("bad move `{mv}`"))?;
            match (x.parse::<usize>(), y.parse::<usize>()) {
                (Ok(x), Ok(y)) if x < size && y < size => Ok((y * size + x) as u16),
                _ => Err(format!("bad move `{mv}` on a {size}x{size} board")),
            }
        })
        .collect::<Result<Vec<u16>, String>>()?;
    let g = GameRecord {
        rule: rule.bits() as u8,
        width: size as u8,
        height: size as u8,
        outcome,
        opening,
        plies: moves.into_iter().map(Ply::unlabelled).collect(),
    };
    g.validate()?;
    Ok(Some(g))
}

/// Searches every ply after the opening at `nodes` nodes and stores its best square and
/// score (the game's moves and result are kept).
pub fn relabel(g: &mut GameRecord, searcher: &mut Searcher, nodes: u64) {
    let rule = Rule::from_bits(g.rule as i64);
    let mut board = Board::new(g.width as usize, g.height as usize, rule);
    searcher.clear();
    let at = |g: &GameRecord, sq: u16| {
        let (x, y) = g.xy(sq);
        Move::from_xy(x, y)
    };
    for i in 0..g.plies.len() {
        if i >= g.opening as usize {
            let limits = Limits {
                clock: Clock::new(Instant::now(), TimeBudget::unlimited()),
                max_depth: None,
                max_nodes: Some(nodes),
            };
            let r = searcher.search(&board, &limits, &AtomicBool::new(false), &mut |_| {});
            g.plies[i].best = g.square(r.best.x(), r.best.y());
            g.plies[i].score = r.score.clamp(-i16::MAX as i32, i16::MAX as i32) as i16;
        }
        board.make(at(g, g.plies[i].mv));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LINE: &str = "#3 black=fivefold white=rapfi result=1-0 reason=\"black wins by five\" \
        opening=7/2 moves=7,7 8,8 7,8 9,9 7,9 6,6 7,10 10,10 7,11";

    #[test]
    fn arena_lines_import_and_relabel() {
        let mut g = arena_line(LINE, 15, Rule::Freestyle).unwrap().unwrap();
        assert_eq!(
            (g.outcome, g.opening, g.plies.len()),
            (Outcome::BlackWon, 2, 9)
        );
        assert_eq!(g.xy(g.plies[2].mv), (7, 8));
        assert!(g.plies.iter().all(|p| !p.is_labelled()));
        relabel(&mut g, &mut Searcher::new(1 << 20), 2000);
        assert!(g.plies[..2].iter().all(|p| !p.is_labelled()));
        assert!(g.plies[2..].iter().all(|p| p.is_labelled()));
        // Before the last ply Black has an open four: the search sees the win and its square.
        let last = g.plies[8];
        assert!(last.score > 20_000, "{last:?}");
        assert!([g.square(7, 11), g.square(7, 6)].contains(&last.best));
    }

    #[test]
    fn unfinished_and_bad_lines() {
        let timeout = LINE.replace("black wins by five", "white loses: timeout");
        assert_eq!(arena_line(&timeout, 15, Rule::Freestyle), Ok(None));
        assert!(arena_line(LINE, 9, Rule::Freestyle)
            .unwrap_err()
            .contains("bad move"));
        let twice = LINE.replace("6,6", "7,7");
        assert!(arena_line(&twice, 15, Rule::Freestyle).is_err());
    }
}

//! Game records a person can replay: one text line per game, Piskvork `.psq` files, and
//! per-engine protocol transcripts.

use crate::game::GameRecord;
use crate::player::file_safe;
use anyhow::{Context, Result};
use std::io::Write;
use std::path::Path;

/// `#12 black=A white=B result=1-0 reason="black wins by five" opening=3/4 moves=7,7 8,8 ...`
/// `opening=I/K` is the suite line index and its stone count (the first K moves).
pub fn game_line(r: &GameRecord) -> String {
    let opening = match r.opening_index {
        Some(i) => format!("{i}/{}", r.opening_len),
        None => "none".to_string(),
    };
    let moves: Vec<String> = r.moves.iter().map(|(x, y, _)| format!("{x},{y}")).collect();
    format!(
        "#{} black={} white={} result={} reason=\"{}\" opening={} moves={}",
        r.index + 1,
        r.black,
        r.white,
        r.result.notation(),
        r.reason,
        opening,
        moves.join(" ")
    )
}

/// Piskvork's saved-game format: a header, then `x,y,ms` per move with 1-based
/// coordinates, then the two engine names and the result (readers stop at the first
/// line that is not a move).
pub fn psq_text(r: &GameRecord, size: usize) -> String {
    let mut s = format!("Piskvorky {size}x{size}, 11:11, 0\n");
    for (x, y, ms) in &r.moves {
        s.push_str(&format!("{},{},{}\n", x + 1, y + 1, ms));
    }
    s.push_str(&format!("{}\n{}\n", r.black, r.white));
    s.push_str(&format!("{} {}\n", r.result.notation(), r.reason));
    s
}

pub fn append_game_line(path: &Path, r: &GameRecord) -> Result<()> {
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .with_context(|| format!("cannot write {}", path.display()))?;
    writeln!(f, "{}", game_line(r))?;
    Ok(())
}

pub fn write_psq(dir: &Path, r: &GameRecord, size: usize) -> Result<()> {
    let path = dir.join(format!("game-{:04}.psq", r.index + 1));
    std::fs::write(&path, psq_text(r, size))
        .with_context(|| format!("cannot write {}", path.display()))
}

/// One transcript per engine and game: `game-0001-black-NAME.log`.
pub fn write_logs(dir: &Path, r: &GameRecord) -> Result<()> {
    for (i, (colour, name)) in [("black", &r.black), ("white", &r.white)]
        .into_iter()
        .enumerate()
    {
        let path = dir.join(format!(
            "game-{:04}-{colour}-{}.log",
            r.index + 1,
            file_safe(name)
        ));
        let mut text = r.logs[i].join("\n");
        text.push('\n');
        std::fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::GameResult;

    fn record() -> GameRecord {
        GameRecord {
            index: 4,
            a_is_black: false,
            black: "B".into(),
            white: "A".into(),
            opening_index: Some(2),
            opening_len: 3,
            moves: vec![(7, 7, 0), (8, 8, 0), (6, 6, 0), (9, 9, 120)],
            result: GameResult::WhiteWins,
            reason: "black loses: timeout".into(),
            stats: Default::default(),
            logs: [vec!["> START 15".into()], vec![]],
        }
    }

    #[test]
    fn game_line_holds_result_reason_opening_and_moves() {
        assert_eq!(
            game_line(&record()),
            "#5 black=B white=A result=0-1 reason=\"black loses: timeout\" opening=2/3 \
             moves=7,7 8,8 6,6 9,9"
        );
    }

    #[test]
    fn psq_is_one_based_with_times() {
        let text = psq_text(&record(), 15);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "Piskvorky 15x15, 11:11, 0");
        assert_eq!(lines[1], "8,8,0");
        assert_eq!(lines[4], "10,10,120");
        assert_eq!(lines[5], "B");
    }
}

//! The training data file: whole games, each ply with the search's label.
//!
//! ```text
//! file   = (header game*)+          shards concatenate: `cat a.ffd b.ffd` is a valid file
//! header = "FFDATA" version:u16     version = FORMAT_VERSION
//! game   = 'G' rule:u8 width:u8 height:u8 result:u8 opening:u8 plies:u16 ply*
//! ply    = move:u16 best:u16 score:i16
//! ```
//! Little-endian. `rule` is the `INFO rule` value; `result` 0 draw, 1 Black won, 2 White
//! won; the first `opening` plies are the opening's stones (not chosen by a search).
//! `move` and `best` are squares `y * width + x` (`best` = `NO_MOVE` when unlabelled);
//! `score` is the search's score for the side to move before the ply, in evaluation
//! units with mates as the search's `WIN - n` (`NO_SCORE` when unlabelled).

use std::io::{self, Read, Write};

pub const MAGIC: &[u8; 6] = b"FFDATA";
pub const FORMAT_VERSION: u16 = 1;
pub const NO_MOVE: u16 = u16::MAX;
pub const NO_SCORE: i16 = i16::MIN;
const GAME_TAG: u8 = b'G';

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Draw = 0,
    BlackWon = 1,
    WhiteWon = 2,
}

/// One ply: the square played, the search's best square and its score before the ply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ply {
    pub mv: u16,
    pub best: u16,
    pub score: i16,
}

impl Ply {
    /// A ply with no search label (an opening stone, an imported game).
    pub fn unlabelled(mv: u16) -> Ply {
        Ply {
            mv,
            best: NO_MOVE,
            score: NO_SCORE,
        }
    }

    pub fn is_labelled(&self) -> bool {
        self.score != NO_SCORE
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    pub rule: u8,
    pub width: u8,
    pub height: u8,
    pub outcome: Outcome,
    pub opening: u8,
    pub plies: Vec<Ply>,
}

impl GameRecord {
    pub fn square(&self, x: usize, y: usize) -> u16 {
        (y * self.width as usize + x) as u16
    }

    pub fn xy(&self, square: u16) -> (usize, usize) {
        let w = self.width as usize;
        (square as usize % w, square as usize / w)
    }

    /// Checks what a reader must be able to trust: squares on the board, each once.
    pub fn validate(&self) -> Result<(), String> {
        let cells = self.width as usize * self.height as usize;
        if !(5..=32).contains(&self.width) || !(5..=32).contains(&self.height) {
            return Err(format!("board {}x{}", self.width, self.height));
        }
        if self.opening as usize > self.plies.len() {
            return Err(format!(
                "opening {} of {} plies",
                self.opening,
                self.plies.len()
            ));
        }
        let mut seen = vec![false; cells];
        for (i, p) in self.plies.iter().enumerate() {
            let mv = p.mv as usize;
            if mv >= cells || seen[mv] {
                return Err(format!(
                    "ply {i}: square {mv} off the board or played twice"
                ));
            }
            seen[mv] = true;
            if p.best != NO_MOVE && p.best as usize >= cells {
                return Err(format!("ply {i}: best square {} off the board", p.best));
            }
        }
        Ok(())
    }
}

pub fn write_header(out: &mut impl Write) -> io::Result<()> {
    out.write_all(MAGIC)?;
    out.write_all(&FORMAT_VERSION.to_le_bytes())
}

pub fn write_game(out: &mut impl Write, g: &GameRecord) -> io::Result<()> {
    let n = u16::try_from(g.plies.len())
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "too many plies"))?;
    out.write_all(&[
        GAME_TAG,
        g.rule,
        g.width,
        g.height,
        g.outcome as u8,
        g.opening,
    ])?;
    out.write_all(&n.to_le_bytes())?;
    for p in &g.plies {
        out.write_all(&p.mv.to_le_bytes())?;
        out.write_all(&p.best.to_le_bytes())?;
        out.write_all(&p.score.to_le_bytes())?;
    }
    Ok(())
}

/// Reads every game of a file (or of shards concatenated). Errors say where and why:
/// a missing or unknown header, a truncated game, a game that fails `validate`.
pub fn read_games(input: &mut impl Read) -> Result<Vec<GameRecord>, String> {
    let mut bytes = Vec::new();
    input
        .read_to_end(&mut bytes)
        .map_err(|e| format!("read: {e}"))?;
    parse_games(&bytes)
}

pub fn parse_games(bytes: &[u8]) -> Result<Vec<GameRecord>, String> {
    let mut r = Cursor { bytes, at: 0 };
    let mut games = Vec::new();
    if !bytes.starts_with(MAGIC) {
        return Err("not a Fivefold data file (no FFDATA header)".into());
    }
    while r.at < bytes.len() {
        let at = r.at;
        match r.u8()? {
            b'F' => {
                r.at = at;
                let magic = r.take(6)?;
                let version = r.u16()?;
                if magic != MAGIC || version != FORMAT_VERSION {
                    return Err(format!(
                        "byte {at}: header version {version}, this build reads {FORMAT_VERSION}"
                    ));
                }
            }
            GAME_TAG => {
                let g = read_game(&mut r).map_err(|e| format!("game at byte {at}: {e}"))?;
                g.validate()
                    .map_err(|e| format!("game at byte {at}: {e}"))?;
                games.push(g);
            }
            other => return Err(format!("byte {at}: unexpected tag {other:#04x}")),
        }
    }
    Ok(games)
}

fn read_game(r: &mut Cursor) -> Result<GameRecord, String> {
    let head = r.take(5)?;
    let outcome = match head[3] {
        0 => Outcome::Draw,
        1 => Outcome::BlackWon,
        2 => Outcome::WhiteWon,
        v => return Err(format!("result {v}")),
    };
    let n = r.u16()? as usize;
    let mut plies = Vec::with_capacity(n);
    for _ in 0..n {
        let mv = r.u16()?;
        let best = r.u16()?;
        let score = r.u16()? as i16;
        plies.push(Ply { mv, best, score });
    }
    Ok(GameRecord {
        rule: head[0],
        width: head[1],
        height: head[2],
        outcome,
        opening: head[4],
        plies,
    })
}

struct Cursor<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Cursor<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], String> {
        let end = self.at + n;
        let slice = self
            .bytes
            .get(self.at..end)
            .ok_or_else(|| format!("truncated at byte {}", self.bytes.len()))?;
        self.at = end;
        Ok(slice)
    }

    fn u8(&mut self) -> Result<u8, String> {
        Ok(self.take(1)?[0])
    }

    fn u16(&mut self) -> Result<u16, String> {
        let b = self.take(2)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(moves: &[u16], outcome: Outcome) -> GameRecord {
        let mut plies: Vec<Ply> = moves.iter().map(|&m| Ply::unlabelled(m)).collect();
        plies[1] = Ply {
            mv: moves[1],
            best: 7,
            score: -123,
        };
        GameRecord {
            rule: 1,
            width: 15,
            height: 15,
            outcome,
            opening: 1,
            plies,
        }
    }

    fn file(games: &[GameRecord]) -> Vec<u8> {
        let mut out = Vec::new();
        write_header(&mut out).unwrap();
        for g in games {
            write_game(&mut out, g).unwrap();
        }
        out
    }

    #[test]
    fn games_round_trip_and_files_concatenate() {
        let a = sample(&[112, 113, 128], Outcome::BlackWon);
        let b = sample(&[0, 224, 15, 16], Outcome::Draw);
        let c = sample(&[50, 51], Outcome::WhiteWon);
        assert_eq!(
            parse_games(&file(&[a.clone(), b.clone()])).unwrap(),
            [a.clone(), b.clone()]
        );
        let mut both = file(&[a.clone(), b.clone()]);
        both.extend(file(std::slice::from_ref(&c)));
        assert_eq!(parse_games(&both).unwrap(), [a, b, c]);
        assert_eq!(parse_games(&file(&[])).unwrap(), []);
    }

    #[test]
    fn bad_files_get_a_reason() {
        let good = file(&[sample(&[112, 113, 128], Outcome::BlackWon)]);
        for cut in (1..good.len()).filter(|&cut| cut != 8) {
            assert!(
                parse_games(&good[..cut]).is_err(),
                "truncated at {cut} accepted"
            );
        }
        let mut other_version = good.clone();
        other_version[6] = 9;
        assert!(parse_games(&other_version)
            .unwrap_err()
            .contains("version 9"));
        let mut twice = good.clone();
        let at = good.len() - 6;
        twice[at..at + 2].copy_from_slice(&112u16.to_le_bytes());
        assert!(parse_games(&twice).unwrap_err().contains("played twice"));
        assert!(parse_games(b"hello").is_err());
    }
}

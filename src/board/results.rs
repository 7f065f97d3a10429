//! The person's results against each level of the built-in engine, kept on the server in
//! a small JSON file (`board-results.json` under the user's data directory) so that they
//! survive a restart, and the level "adapt" picks for the next game.

use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The file's name inside the data directory.
pub const FILE_NAME: &str = "board-results.json";

/// How a game ended for the person.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Won,
    Lost,
    Drawn,
}

impl Outcome {
    fn name(self) -> &'static str {
        match self {
            Outcome::Won => "won",
            Outcome::Lost => "lost",
            Outcome::Drawn => "drawn",
        }
    }

    fn by_name(name: &str) -> Option<Outcome> {
        [Outcome::Won, Outcome::Lost, Outcome::Drawn]
            .into_iter()
            .find(|o| o.name() == name)
    }
}

/// Games won, lost and drawn by the person at one level.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub won: u32,
    pub lost: u32,
    pub drawn: u32,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Results {
    /// Where they are kept; `None`: in memory only (no data directory found).
    path: Option<PathBuf>,
    pub levels: BTreeMap<u8, Tally>,
    /// The last game recorded: its level and how it ended.
    pub last: Option<(u8, Outcome)>,
}

/// The data directory: `$XDG_DATA_HOME/fivefold`, else `~/.local/share/fivefold`.
pub fn default_dir() -> Option<PathBuf> {
    let xdg = std::env::var_os("XDG_DATA_HOME").filter(|d| !d.is_empty());
    let base = match xdg {
        Some(d) => PathBuf::from(d),
        None => PathBuf::from(std::env::var_os("HOME")?).join(".local/share"),
    };
    Some(base.join("fivefold"))
}

impl Results {
    /// The results kept in `dir` (none yet if the file is missing or unreadable: a
    /// damaged file is logged and replaced at the next game).
    pub fn load(dir: Option<&Path>) -> Results {
        let path = dir.map(|d| d.join(FILE_NAME));
        let text = path.as_ref().and_then(|p| std::fs::read_to_string(p).ok());
        let mut results = match text.map(|t| serde_json::from_str::<Value>(&t)) {
            Some(Ok(v)) => Results::from_json(&v),
            Some(Err(e)) => {
                log::warn!("{FILE_NAME}: {e}; starting a new record");
                Results::default()
            }
            None => Results::default(),
        };
        results.path = path;
        results
    }

    fn from_json(v: &Value) -> Results {
        let count = |t: &Value, k: &str| t.get(k).and_then(Value::as_u64).unwrap_or(0) as u32;
        let mut levels = BTreeMap::new();
        for (key, t) in v
            .get("levels")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
        {
            if let Ok(level) = key.parse::<u8>() {
                let tally = Tally {
                    won: count(t, "won"),
                    lost: count(t, "lost"),
                    drawn: count(t, "drawn"),
                };
                levels.insert(level, tally);
            }
        }
        let last = v.get("last").and_then(|l| {
            let level = u8::try_from(l.get("level")?.as_u64()?).ok()?;
            Some((level, Outcome::by_name(l.get("result")?.as_str()?)?))
        });
        Results {
            path: None,
            levels,
            last,
        }
    }

    pub fn to_json(&self) -> Value {
        let levels: serde_json::Map<String, Value> = self
            .levels
            .iter()
            .map(|(l, t)| {
                let tally = json!({ "won": t.won, "lost": t.lost, "drawn": t.drawn });
                (l.to_string(), tally)
            })
            .collect();
        let last = self
            .last
            .map(|(level, o)| json!({ "level": level, "result": o.name() }));
        json!({ "levels": levels, "last": last })
    }

    /// Counts a game at `level` and writes the file.
    pub fn record(&mut self, level: u8, outcome: Outcome) {
        let t = self.levels.entry(level).or_default();
        match outcome {
            Outcome::Won => t.won += 1,
            Outcome::Lost => t.lost += 1,
            Outcome::Drawn => t.drawn += 1,
        }
        self.last = Some((level, outcome));
        if let Err(e) = self.save() {
            log::warn!("cannot save the results: {e}");
        }
    }

    /// Writes the file whole, through a temporary file, so a crash leaves the old one.
    fn save(&self) -> std::io::Result<()> {
        let Some(path) = &self.path else {
            return Ok(());
        };
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        let tmp = path.with_extension("json.tmp");
        std::fs::write(&tmp, format!("{:#}\n", self.to_json()))?;
        std::fs::rename(&tmp, path)
    }

    /// The level "adapt" offers after the last game: one up after a win, one down after a
    /// loss, the same after a draw (`default` when nothing is recorded), within 1 to 10.
    pub fn adapted_level(&self, default: u8) -> u8 {
        let next = match self.last {
            Some((l, Outcome::Won)) => l.saturating_add(1),
            Some((l, Outcome::Lost)) => l.saturating_sub(1),
            Some((l, Outcome::Drawn)) => l,
            None => default,
        };
        next.clamp(1, crate::levels::FULL)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("fivefold-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn results_survive_a_reload_and_a_damaged_file_starts_afresh() {
        let dir = temp_dir("results");
        let mut r = Results::load(Some(&dir));
        assert_eq!(r.levels.len(), 0);
        r.record(1, Outcome::Won);
        r.record(1, Outcome::Won);
        r.record(3, Outcome::Lost);
        let again = Results::load(Some(&dir));
        assert_eq!(again.levels, r.levels);
        assert_eq!(again.levels[&1].won, 2);
        assert_eq!(again.last, Some((3, Outcome::Lost)));
        std::fs::write(dir.join(FILE_NAME), "{not json").unwrap();
        assert_eq!(Results::load(Some(&dir)).levels.len(), 0);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn adapt_goes_up_after_a_win_and_down_after_a_loss() {
        let mut r = Results::load(None);
        assert_eq!(r.adapted_level(1), 1);
        r.record(4, Outcome::Won);
        assert_eq!(r.adapted_level(1), 5);
        r.record(4, Outcome::Lost);
        assert_eq!(r.adapted_level(1), 3);
        r.record(4, Outcome::Drawn);
        assert_eq!(r.adapted_level(1), 4);
        r.record(1, Outcome::Lost);
        assert_eq!(r.adapted_level(1), 1);
        r.record(crate::levels::FULL, Outcome::Won);
        assert_eq!(r.adapted_level(1), crate::levels::FULL);
    }
}

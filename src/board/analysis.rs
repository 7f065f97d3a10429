//! The analysis panel's data, read from a brain's `MESSAGE` lines. Fivefold writes
//! `depth D score S nodes N nps N time T pv x,y x,y ...`; other brains' lines are shown
//! as they are.

use super::game::color_name;
use crate::game::Color;
use serde_json::{json, Map, Value};

/// The fields found in `text` (a MESSAGE line without its first word).
pub fn parse(text: &str, engine: &str, side: Color, hint: bool) -> Value {
    let mut fields = Map::new();
    let mut words = text.split_whitespace();
    let mut pv = Vec::new();
    while let Some(word) = words.next() {
        match word {
            "depth" | "score" | "nodes" | "nps" | "time" => {
                if let Some(v) = words.next() {
                    fields.insert(word.to_string(), Value::String(v.to_string()));
                }
            }
            "pv" => {
                pv = words.by_ref().filter_map(point).collect();
            }
            _ => {}
        }
    }
    fields.insert("pv".into(), json!(pv));
    fields.insert(
        "text".into(),
        json!(text.chars().take(300).collect::<String>()),
    );
    fields.insert("engine".into(), json!(engine));
    fields.insert("side".into(), json!(color_name(side)));
    fields.insert("hint".into(), json!(hint));
    Value::Object(fields)
}

fn point(word: &str) -> Option<[usize; 2]> {
    let (x, y) = word.split_once(',')?;
    Some([x.parse().ok()?, y.parse().ok()?])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_fivefold_depth_lines() {
        let v = parse(
            "depth 6 score 35 nodes 1200 nps 400000 time 3 pv 7,7 8,8 x",
            "Fivefold",
            Color::White,
            false,
        );
        assert_eq!(v["depth"], "6");
        assert_eq!(v["score"], "35");
        assert_eq!(v["nodes"], "1200");
        assert_eq!(v["pv"], json!([[7, 7], [8, 8]]));
        assert_eq!(v["side"], "white");
        let other = parse("thinking hard", "X", Color::Black, true);
        assert_eq!(other["text"], "thinking hard");
        assert!(other.get("depth").is_none());
    }
}

//! Brain -> manager lines, formatted exactly as strict managers expect them:
//! `x,y` with no spaces, `OK` alone, one line per reply.

/// The ABOUT answer's fixed fields; the version comes from Cargo.
pub const ENGINE_NAME: &str = "Fivefold";
pub const ENGINE_AUTHOR: &str = "Fivefold developers";
pub const ENGINE_COUNTRY: &str = "CZ";

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    Ok,
    /// One move, `x,y`.
    Move(usize, usize),
    /// Several moves on one line (SWAP2BOARD openings), `x1,y1 x2,y2 ...`.
    Moves(Vec<(usize, usize)>),
    /// SWAP2BOARD: take the other colour.
    Swap,
    About,
    Error(String),
    Unknown(String),
    Message(String),
    Debug(String),
    /// YXSHOWFORBID: `FORBID XXYYXXYY...` then `.`, each coordinate two digits.
    Forbid(Vec<(usize, usize)>),
}

impl Reply {
    /// The line to print, without the line terminator.
    pub fn to_line(&self) -> String {
        match self {
            Reply::Ok => "OK".to_string(),
            Reply::Move(x, y) => format!("{x},{y}"),
            Reply::Moves(moves) => moves
                .iter()
                .map(|(x, y)| format!("{x},{y}"))
                .collect::<Vec<_>>()
                .join(" "),
            Reply::Swap => "SWAP".to_string(),
            Reply::About => about_line(),
            Reply::Error(text) => tagged("ERROR", text),
            Reply::Unknown(text) => tagged("UNKNOWN", text),
            Reply::Message(text) => tagged("MESSAGE", text),
            Reply::Debug(text) => tagged("DEBUG", text),
            Reply::Forbid(points) => {
                let digits: String = points
                    .iter()
                    .map(|(x, y)| format!("{x:02}{y:02}"))
                    .collect();
                format!("FORBID {digits}.")
            }
        }
    }
}

pub fn about_line() -> String {
    format!(
        "name=\"{ENGINE_NAME}\", version=\"{}\", author=\"{ENGINE_AUTHOR}\", country=\"{ENGINE_COUNTRY}\"",
        env!("CARGO_PKG_VERSION")
    )
}

/// `TAG text`, with the text forced onto one line: a stray newline in a message would
/// turn the rest of it into a (bogus) protocol line.
fn tagged(tag: &str, text: &str) -> String {
    let one_line: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    let one_line = one_line.trim();
    if one_line.is_empty() {
        tag.to_string()
    } else {
        format!("{tag} {one_line}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_have_no_spaces() {
        assert_eq!(Reply::Move(7, 10).to_line(), "7,10");
        assert_eq!(
            Reply::Moves(vec![(7, 7), (8, 7), (9, 9)]).to_line(),
            "7,7 8,7 9,9"
        );
    }

    #[test]
    fn forbid_lists_two_digit_coordinates_and_ends_with_a_dot() {
        assert_eq!(
            Reply::Forbid(vec![(9, 12), (10, 11)]).to_line(),
            "FORBID 09121011."
        );
        assert_eq!(Reply::Forbid(vec![(0, 5)]).to_line(), "FORBID 0005.");
        assert_eq!(Reply::Forbid(Vec::new()).to_line(), "FORBID .");
    }

    #[test]
    fn ok_is_alone() {
        assert_eq!(Reply::Ok.to_line(), "OK");
    }

    #[test]
    fn about_names_the_engine_and_version() {
        let line = Reply::About.to_line();
        assert!(line.starts_with("name=\"Fivefold\", version=\""));
        assert!(line.contains(env!("CARGO_PKG_VERSION")));
        assert!(line.ends_with("author=\"Fivefold developers\", country=\"CZ\""));
    }

    #[test]
    fn tagged_text_stays_on_one_line() {
        let line = Reply::Message("depth 3\nscore 10\r".to_string()).to_line();
        assert_eq!(line, "MESSAGE depth 3 score 10");
        assert_eq!(Reply::Error("x".into()).to_line(), "ERROR x");
        assert_eq!(Reply::Unknown("FOO".into()).to_line(), "UNKNOWN FOO");
    }
}

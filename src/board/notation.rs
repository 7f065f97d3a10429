//! Games as text: Piskvork `.psq` files and position strings (`h8i9j10`, letter = column
//! from `a`, number = row from 1, as GomocupJudge writes them; `7,7 8,8` works too).

/// A board size and its stones in playing order, black first, 0-based `(x, y)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    pub size: usize,
    pub moves: Vec<(usize, usize)>,
}

/// Piskvork's format: `Piskvorky WxH, 11:11, 0`, then `x,y,ms` per move, 1-based.
pub fn write_psq(size: usize, moves: &[(usize, usize)], footer: &[String]) -> String {
    let mut s = format!("Piskvorky {size}x{size}, 11:11, 0\n");
    for (x, y) in moves {
        s.push_str(&format!("{},{},0\n", x + 1, y + 1));
    }
    for line in footer {
        s.push_str(line);
        s.push('\n');
    }
    s
}

/// Reads a `.psq`: the header's size (square boards only), then moves until the first
/// line that is not `x,y,ms` (Piskvork puts brain names and results after them).
pub fn parse_psq(text: &str) -> Result<Record, String> {
    let mut lines = text.lines();
    let header = lines.next().ok_or("empty .psq file")?;
    let size = psq_size(header)?;
    let mut moves = Vec::new();
    for line in lines {
        let fields: Vec<&str> = line.trim().split(',').map(str::trim).collect();
        let (Some(x), Some(y)) = (num(fields.first()), num(fields.get(1))) else {
            break;
        };
        if fields.len() != 3 || x == 0 || y == 0 || x > size || y > size {
            return Err(format!("bad move line `{}`", short(line)));
        }
        moves.push((x - 1, y - 1));
    }
    Ok(Record { size, moves })
}

fn num(field: Option<&&str>) -> Option<usize> {
    let f = field?;
    if f.is_empty() || !f.bytes().all(|b| b.is_ascii_digit()) || f.len() > 4 {
        return None;
    }
    f.parse().ok()
}

fn psq_size(header: &str) -> Result<usize, String> {
    let bad = || format!("not a .psq header: `{}`", short(header));
    let rest = header.trim().strip_prefix("Piskvorky ").ok_or_else(bad)?;
    let dims = rest.split(',').next().ok_or_else(bad)?;
    let (w, h) = dims.trim().split_once('x').ok_or_else(bad)?;
    let (w, h) = (w.parse::<usize>(), h.parse::<usize>());
    match (w, h) {
        (Ok(w), Ok(h)) if w == h => Ok(w),
        (Ok(_), Ok(_)) => Err("only square boards are supported".to_string()),
        _ => Err(bad()),
    }
}

/// `h8i9j10`: column letter from `a`, row number from 1.
pub fn write_position(moves: &[(usize, usize)]) -> String {
    moves
        .iter()
        .map(|&(x, y)| format!("{}{}", (b'a' + x as u8) as char, y + 1))
        .collect()
}

/// Reads `h8i9j10` (spaces allowed between moves) or `7,7 8,8` (0-based x,y).
pub fn parse_position(text: &str, size: usize) -> Result<Vec<(usize, usize)>, String> {
    let text = text.trim();
    let moves = if text.contains(',') {
        text.split_whitespace().map(parse_xy).collect()
    } else {
        parse_letters(text)
    }?;
    match moves.iter().find(|&&(x, y)| x >= size || y >= size) {
        Some((x, y)) => Err(format!("{x},{y} is off a {size}x{size} board")),
        None => Ok(moves),
    }
}

fn parse_xy(token: &str) -> Result<(usize, usize), String> {
    let bad = || format!("bad move `{}`", short(token));
    let (x, y) = token.split_once(',').ok_or_else(bad)?;
    Ok((x.parse().map_err(|_| bad())?, y.parse().map_err(|_| bad())?))
}

fn parse_letters(text: &str) -> Result<Vec<(usize, usize)>, String> {
    let mut moves = Vec::new();
    let mut chars = text.chars().filter(|c| !c.is_whitespace()).peekable();
    while let Some(c) = chars.next() {
        if !c.is_ascii_alphabetic() {
            return Err(format!("expected a column letter, found `{c}`"));
        }
        let x = (c.to_ascii_lowercase() as u8 - b'a') as usize;
        let mut digits = String::new();
        while let Some(d) = chars.next_if(|d| d.is_ascii_digit()) {
            digits.push(d);
        }
        match digits.parse::<usize>() {
            Ok(row) if row >= 1 && digits.len() <= 2 => moves.push((x, row - 1)),
            _ => return Err(format!("bad row after `{c}`")),
        }
    }
    Ok(moves)
}

fn short(s: &str) -> String {
    s.chars().take(40).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn psq_round_trips_and_stops_at_the_footer() {
        let moves = vec![(7, 7), (8, 8), (0, 14)];
        let text = write_psq(15, &moves, &["Fivefold".into(), "Human".into()]);
        assert!(text.starts_with("Piskvorky 15x15, 11:11, 0\n8,8,0\n"));
        assert_eq!(parse_psq(&text), Ok(Record { size: 15, moves }));
    }

    #[test]
    fn psq_from_piskvork_with_crlf_and_times() {
        let text = "Piskvorky 20x20, 11:11, 0\r\n10,10,0\r\n11,11,1532\r\n-1\r\n";
        let r = parse_psq(text).unwrap();
        assert_eq!((r.size, r.moves), (20, vec![(9, 9), (10, 10)]));
    }

    #[test]
    fn psq_errors_are_reported() {
        assert!(parse_psq("").is_err());
        assert!(parse_psq("hello\n1,1,0\n").is_err());
        assert!(parse_psq("Piskvorky 15x20, 1:1, 0\n").is_err());
        assert!(parse_psq("Piskvorky 15x15, 1:1, 0\n16,1,0\n").is_err());
    }

    #[test]
    fn positions_in_both_notations() {
        assert_eq!(write_position(&[(7, 7), (8, 8), (9, 9)]), "h8i9j10");
        assert_eq!(
            parse_position("h8i9 J10", 15),
            Ok(vec![(7, 7), (8, 8), (9, 9)])
        );
        assert_eq!(parse_position("7,7 8,8", 15), Ok(vec![(7, 7), (8, 8)]));
        assert_eq!(parse_position("", 15), Ok(vec![]));
        assert!(parse_position("p1", 15).is_err());
        assert!(parse_position("h", 15).is_err());
        assert!(parse_position("8h", 15).is_err());
        assert!(parse_position("7,x", 15).is_err());
    }
}

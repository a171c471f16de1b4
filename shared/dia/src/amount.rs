//! Amounts as people write them, read once for every layer (an entity in a
//! message, an answer to an ask, a value compared with what the user said).

/// An amount as people write it: `600`, `$600`, `10,000`, `2,350.50`, `4k`,
/// `$1.2k`, `3m`, `-5`; `None` for anything else (a finite number or nothing).
pub fn parse_amount(text: &str) -> Option<f64> {
    let text = text.trim();
    let text = text
        .strip_prefix(['$', '€', '£'])
        .unwrap_or(text)
        .trim_start();
    let (digits, scale) = match text.char_indices().last() {
        Some((at, 'k' | 'K')) => (&text[..at], 1e3),
        Some((at, 'm' | 'M')) => (&text[..at], 1e6),
        _ => (text, 1.0),
    };
    let (sign, digits) = match digits.strip_prefix('-') {
        Some(rest) => (-1.0, rest),
        None => (1.0, digits),
    };
    let (whole, fraction) = digits.split_once('.').unwrap_or((digits, ""));
    let groups: Vec<&str> = whole.split(',').collect();
    let grouped_well = groups.len() == 1
        || (!groups[0].is_empty()
            && groups[0].len() <= 3
            && groups[1..].iter().all(|g| g.len() == 3));
    if whole.is_empty()
        || !grouped_well
        || !groups.iter().all(|g| g.chars().all(|c| c.is_ascii_digit()))
        || !fraction.chars().all(|c| c.is_ascii_digit())
        || (digits.contains('.') && fraction.is_empty())
    {
        return None;
    }
    let number: f64 = format!(
        "{}.{}",
        groups.concat(),
        if fraction.is_empty() { "0" } else { fraction }
    )
    .parse()
    .ok()?;
    Some(sign * number * scale).filter(|value| value.is_finite())
}

#[cfg(test)]
mod tests {
    use super::parse_amount;

    #[test]
    fn amounts_as_people_write_them() {
        for (text, value) in [
            ("600", 600.0),
            ("$600", 600.0),
            ("10,000", 10000.0),
            ("2,350.50", 2350.5),
            ("4k", 4000.0),
            ("$1.2k", 1200.0),
            ("3M", 3_000_000.0),
            ("-5", -5.0),
            ("€ 12", 12.0),
        ] {
            assert_eq!(parse_amount(text), Some(value), "{text}");
        }
        for text in [
            "", "k", "1,00", "12,3456", "1.", "abc", "7:45", "555-0142", "1e999", "$",
        ] {
            assert_eq!(parse_amount(text), None, "{text}");
        }
    }
}

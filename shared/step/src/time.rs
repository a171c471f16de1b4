//! Timestamps as jobs keep them: RFC 3339 in UTC with milliseconds (jiff
//! formats and parses them; nothing here is hand-written calendar code).

/// Milliseconds since the Unix epoch, now.
pub fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |elapsed| elapsed.as_millis() as u64)
}

/// RFC 3339 UTC timestamp with milliseconds for `ms` since the epoch.
pub fn rfc3339(ms: u64) -> String {
    let stamp = i64::try_from(ms)
        .ok()
        .and_then(|ms| jiff::Timestamp::from_millisecond(ms).ok())
        .unwrap_or(jiff::Timestamp::UNIX_EPOCH);
    format!("{stamp:.3}")
}

/// Now, RFC 3339.
pub fn now() -> String {
    rfc3339(now_ms())
}

/// Milliseconds since the epoch of an RFC 3339 timestamp (`None`: not one,
/// or before the epoch).
pub fn parse_rfc3339_ms(text: &str) -> Option<u64> {
    let stamp: jiff::Timestamp = text.parse().ok()?;
    u64::try_from(stamp.as_millisecond()).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps_round_trip_with_milliseconds() {
        for ms in [
            0,
            1,
            999,
            1_700_000_000_123,
            951_782_400_000,
            4_102_444_799_999,
        ] {
            let text = rfc3339(ms);
            assert_eq!(text.len(), 24, "{text}");
            assert_eq!(parse_rfc3339_ms(&text), Some(ms), "{text}");
        }
        assert_eq!(rfc3339(951_782_400_000), "2000-02-29T00:00:00.000Z");
        assert_eq!(parse_rfc3339_ms("not a time"), None);
        assert_eq!(parse_rfc3339_ms("1969-12-31T23:59:59.000Z"), None);
    }
}

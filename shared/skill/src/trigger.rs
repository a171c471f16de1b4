//! `triggers`: jobs a skill starts itself. A `schedule` trigger starts one
//! job of the skill every `every` (an ISO 8601 duration, `PT15M`, `P1D`),
//! with its `prompt` as the goal. Periods are counted from the Unix epoch, so
//! every replica agrees on which period it is: the first to claim a period
//! in the store runs it, nobody else does, and a period missed while no
//! replica ran is never run late (after downtime the current one runs once).

use serde::{Deserialize, Serialize};

/// Shortest period a schedule may have.
pub const MIN_PERIOD_MS: u64 = 1_000;

/// A `triggers[]` entry.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default)]
pub struct Trigger {
    /// Its id (unique in the skill).
    pub id: String,
    /// `schedule` (the only type the runtime runs).
    #[serde(rename = "type")]
    pub kind: String,
    /// `false` turns it off.
    pub enabled: Option<bool>,
    /// Most of its jobs running at once, across replicas (default 1).
    pub concurrency: Option<u32>,
    /// The goal of each job.
    pub prompt: String,
    /// The period, ISO 8601 (`PT15M`).
    pub every: String,
}

impl Trigger {
    /// Whether the runtime runs it.
    pub fn is_enabled(&self) -> bool {
        self.enabled != Some(false) && self.kind == "schedule"
    }

    /// Its period in milliseconds, when `every` is a valid one.
    pub fn period_ms(&self) -> Option<u64> {
        period_ms(&self.every).ok()
    }

    /// Jobs of it that may run at once.
    pub fn concurrency(&self) -> u32 {
        self.concurrency.unwrap_or(1).max(1)
    }
}

/// An ISO 8601 duration in milliseconds (days are 24 hours; years and
/// months, whose length varies, are refused).
pub fn period_ms(every: &str) -> Result<u64, String> {
    crate::grammar::check(crate::grammar::Grammar::Duration, every)?;
    let span: jiff::Span = every
        .trim()
        .parse()
        .map_err(|error| format!("`{every}` is not an ISO 8601 duration: {error}"))?;
    if span.get_years() != 0 || span.get_months() != 0 {
        return Err(format!(
            "`{every}`: years and months have no fixed length; use days (`P30D`)"
        ));
    }
    let seconds = span
        .total((
            jiff::Unit::Second,
            jiff::SpanRelativeTo::days_are_24_hours(),
        ))
        .map_err(|error| format!("`{every}`: {error}"))?;
    let ms = (seconds * 1000.0).round();
    if !ms.is_finite() || ms < MIN_PERIOD_MS as f64 {
        return Err(format!("`{every}` is shorter than one second"));
    }
    Ok(ms as u64)
}

/// The period `now_ms` falls in, and when the next one begins.
pub fn period(now_ms: u64, period_ms: u64) -> (u64, u64) {
    let index = now_ms / period_ms;
    (index, (index + 1) * period_ms)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iso_durations_are_periods() {
        assert_eq!(period_ms("PT15M"), Ok(900_000));
        assert_eq!(period_ms("P1D"), Ok(86_400_000));
        assert_eq!(period_ms("PT1S"), Ok(1_000));
        assert!(period_ms("P1M").is_err());
        assert!(period_ms("PT0.5S").is_err());
        assert!(period_ms("every 15 minutes").is_err());
        assert_eq!(period(1_500, 1_000), (1, 2_000));
    }
}
